package fsres

import (
	"bytes"
	"mime"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/gabriel-vasile/mimetype"
)

// textTypes names source and config formats that content sniffing only calls
// text/plain, so a client can tell Go from Markdown.
var textTypes = map[string]string{
	".go": "text/x-go", ".mod": "text/plain", ".sum": "text/plain",
	".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain",
	".py": "text/x-python", ".js": "text/javascript", ".mjs": "text/javascript",
	".ts": "text/x-typescript", ".tsx": "text/x-typescript", ".jsx": "text/javascript",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml",
	".toml": "application/toml", ".sh": "text/x-shellscript", ".bash": "text/x-shellscript",
	".rs": "text/x-rust", ".c": "text/x-c", ".h": "text/x-c", ".cc": "text/x-c++",
	".cpp": "text/x-c++", ".hpp": "text/x-c++", ".java": "text/x-java", ".kt": "text/x-kotlin",
	".rb": "text/x-ruby", ".php": "text/x-php", ".cs": "text/x-csharp", ".swift": "text/x-swift",
	".html": "text/html", ".htm": "text/html", ".css": "text/css", ".xml": "application/xml",
	".svg": "image/svg+xml", ".csv": "text/csv", ".sql": "application/sql",
	".proto": "text/x-protobuf", ".ini": "text/plain", ".cfg": "text/plain",
}

// mimeByName guesses a MIME type from the file name alone (no I/O), for
// listings. It returns "" when the extension is unknown.
func mimeByName(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := textTypes[ext]; ok {
		return t
	}
	if ext == "" {
		return ""
	}
	return mime.TypeByExtension(ext)
}

// isText reports UTF-8 without NUL bytes: what passes can go into a JSON
// string unchanged and reads as text.
func isText(data []byte) bool {
	return bytes.IndexByte(data, 0) < 0 && utf8.Valid(data)
}

// looksBinary is git's rule alone, for searches that must be fast.
func looksBinary(head []byte) bool {
	return bytes.IndexByte(head[:min(len(head), 8000)], 0) >= 0
}

// detectMIME sniffs the content of one file and corrects text types by
// extension.
func detectMIME(name string, data []byte, text bool) string {
	if text {
		if t, ok := textTypes[strings.ToLower(path.Ext(name))]; ok {
			return t
		}
	}
	m := mimetype.Detect(data).String()
	if text && (strings.HasPrefix(m, "text/plain") || !strings.HasPrefix(m, "text/") && !strings.Contains(m, "json") && !strings.Contains(m, "xml")) {
		return "text/plain" // UTF-8 goes without saying: only valid UTF-8 is text here
	}
	return m
}
