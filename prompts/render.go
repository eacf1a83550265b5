package prompts

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"text/template"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// templates holds one named template per prompt (see templates/*.tmpl), parsed at the first prompt rather than
// at start-up. Parsing embedded files cannot fail at run time unless the files are broken, which the tests catch.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Option("missingkey=error").Funcs(template.FuncMap{
		"bytes": func(n int64) string { return words.Count(int(n), "byte", "bytes") }, // {{bytes .Size}}: "1 byte", "2 bytes"
	}).ParseFS(templateFS, "templates/*.tmpl"))
})

const diffMIME = "text/x-diff"

// render executes the named template.
func render(name string, data any) (string, error) {
	var b strings.Builder
	if err := templates().ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("rendering prompt %s: %w", name, err)
	}
	return b.String(), nil
}

// invalidParams is the JSON-RPC error every refusal uses.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// gitError turns an error from Git into the refusal the client sees. notFound is the refusal for errors wrapping
// roots.ErrNotFound (outside the roots, missing, not a repository), which must read the same as the refusal the
// prompt gives for an argument outside the roots. Other texts from gittools name only what the client sent, so
// they are passed on.
func gitError(prompt string, err, notFound error) error {
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, roots.ErrNotFound):
		return notFound
	}
	return invalidParams("prompt %s: %v", prompt, err)
}

// material is one embedded piece of content: a diff, log or file, already cut to size.
type material struct {
	uri      string
	mimeType string
	text     string            // what is embedded
	total    int               // the full length, in bytes
	cut      bool              // text is shorter than the original
	what     string            // "diff", "log", "file": names it in the cut note
	hint     string            // the template saying how to get the rest (templates/notes.tmpl)
	link     *mcp.ResourceLink // where the rest can be read, when cut
}

// material cuts text to the embedding cap.
func (p *Prompts) material(text string) material {
	kept, wasCut := cut(text, p.opts.MaxEmbedBytes)
	return material{text: kept, total: len(text), cut: wasCut}
}

// cut reports whether text exceeds limit bytes and, if so, returns the part to keep: whole lines when possible, and
// always valid UTF-8.
func cut(text string, limit int) (string, bool) {
	if len(text) <= limit {
		return text, false
	}
	kept := text[:limit]
	if i := strings.LastIndexByte(kept, '\n'); i > 0 {
		return kept[:i+1], true
	}
	for len(kept) > 0 && !utf8.ValidString(kept) {
		kept = kept[:len(kept)-1]
	}
	return kept, true
}

// messages builds a prompt's messages: the instructions, the material as an embedded resource, and when the
// material was cut a note with a link to the rest.
func (m material) messages(instructions string) ([]*mcp.PromptMessage, error) {
	msgs := []*mcp.PromptMessage{
		text(instructions),
		{Role: "user", Content: &mcp.EmbeddedResource{
			Resource: &mcp.ResourceContents{URI: m.uri, MIMEType: m.mimeType, Text: m.text},
		}},
	}
	if !m.cut {
		return msgs, nil
	}
	hint, err := render(m.hint, nil)
	if err != nil {
		return nil, err
	}
	note, err := render("cut", struct {
		What, Hint  string
		Total, Kept int
	}{m.what, hint, m.total, len(m.text)})
	if err != nil {
		return nil, err
	}
	msgs = append(msgs, text(note))
	if m.link != nil {
		msgs = append(msgs, &mcp.PromptMessage{Role: "user", Content: m.link})
	}
	return msgs, nil
}

// gitURI names git material: the scheme git+kind and the path of dirURI (a file:// URI), with query q.
func gitURI(kind, dirURI string, q url.Values) string {
	u := "git+" + kind + ":" + strings.TrimPrefix(dirURI, "file:")
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func text(s string) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: s}}
}
