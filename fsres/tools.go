package fsres

import (
	"errors"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (f *Files) registerReadTools(s *mcp.Server) {
	p := f.opts.Scope
	read := func(name, title, desc string) *mcp.Tool {
		return &mcp.Tool{Name: name, Title: title, Description: desc, Annotations: &mcp.ToolAnnotations{
			Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false),
		}}
	}
	scope.AddTool(s, read("read_file", "Read file",
		"Read a text file inside the roots. Give start_line/end_line (1-based, inclusive), head or tail to read part of it; "+
			"the answer says the total line count and whether it was cut. PNG, JPEG, GIF and WebP images and WAV, MP3, Ogg and FLAC audio "+
			"come as an image or audio content block (up to a size limit); other binary files are described, not dumped. "+
			"The text comes in the content block; structuredContent holds its metadata."),
		p, f.readFile)
	scope.AddTool(s, read("read_files", "Read files",
		"Read several text files at once; a file that fails gets its own error and does not stop the others. "+
			"Images and audio come as their own content blocks, after the text that names them. "+
			"The texts come in the content block; structuredContent holds their metadata."),
		p, f.readFiles)
	scope.AddTool(s, read("list_directory", "List directory",
		"List a directory: directories first, then files with sizes. Entries ignored by .gitignore are left out."),
		p, f.listDirectory)
	scope.AddTool(s, read("directory_tree", "Directory tree",
		"Show the tree below a directory, honouring .gitignore, to max_depth levels (default 3) and max_entries entries (default 500)."),
		p, f.directoryTree)
	scope.AddTool(s, read("search_files", "Search file names",
		"Find files and directories whose path matches a glob (e.g. **/*.go, cmd/*/main.go; a pattern without / matches "+
			"the base name at any depth). Honours .gitignore."),
		p, f.searchFiles)
	scope.AddTool(s, read("grep", "Search file contents",
		"Search file contents with an RE2 regular expression matched against each line, as ripgrep does (^ and $ at line "+
			"boundaries; multiline lets a match span lines). Answers file:line: text lines (context as file-line- text); "+
			"output_mode files_with_matches lists paths, count gives path:count. Narrow with glob or type (ripgrep's file types). "+
			"Honours .gitignore and searches dot-directories (never .git); skips binary files (a NUL byte in the first 8000 bytes) "+
			"and files above the size limit, and says how many."),
		p, f.grep)
	scope.AddTool(s, read("file_info", "File info",
		"Describe a file or directory: type, size, mode, modification time, MIME type, whether it is text and its line count."),
		p, f.fileInfo)
}

func (f *Files) registerWriteTools(s *mcp.Server) {
	p := f.opts.Scope
	write := func(name, title, desc string, destructive, idempotent bool) *mcp.Tool {
		return &mcp.Tool{Name: name, Title: title, Description: desc, Annotations: &mcp.ToolAnnotations{
			Title: title, DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(false),
		}}
	}
	scope.AddTool(s, write("write_file", "Write file",
		"Create or replace a file with the given content, atomically. The parent directory must exist.", true, true),
		p, f.writeFile)
	scope.AddTool(s, write("edit_file", "Edit file",
		"Replace exact text in a file: each edit's old_text must occur exactly once, edits apply in order. "+
			"dry_run shows the unified diff without writing; a real run writes atomically and shows the diff.", true, false),
		p, f.editFile)
	scope.AddTool(s, write("create_directory", "Create directory",
		"Create a directory and any missing parents. Succeeds if it already exists.", false, true),
		p, f.createDirectory)
	scope.AddTool(s, write("move_file", "Move file",
		"Move or rename a file or directory within one root. Never overwrites: fails if the destination exists.", true, false),
		p, f.moveFile)
}

func ptr[T any](v T) *T { return &v }

// resolve turns a tool's path argument into a Loc; outside the roots reads as
// not found.
func resolve(sc *roots.Scope, p string) (roots.Loc, error) {
	if p == "" {
		return roots.Loc{}, errors.New("path is required")
	}
	if err := scope.RefuseTilde(p); err != nil {
		return roots.Loc{}, err
	}
	loc, err := sc.Resolve(p)
	if err != nil {
		return roots.Loc{}, roots.PublicError(p, err)
	}
	return loc, nil
}

// resolveOrRoot is resolve for an argument that may be left out: "" means
// the only root (with several, an error that lists them). It also returns
// the argument to name in errors: p, or the default root's URI.
func resolveOrRoot(sc *roots.Scope, p string) (roots.Loc, string, error) {
	if p == "" {
		r, err := scope.DefaultRoot(sc, "path")
		if err != nil {
			return roots.Loc{}, "", err
		}
		p = r.URI
	}
	loc, err := resolve(sc, p)
	return loc, p, err
}

// shownArg is the path argument to name in an error about loc: what the
// client sent, or, when it left the argument out, the root's URI.
func shownArg(p string, loc roots.Loc) string {
	if p == "" {
		return loc.Root.URI
	}
	return p
}

// textResult is a tool result whose content is one text block.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
