package fsres

import (
	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
)

// Matcher returns the .gitignore matcher of the directory root r: built once
// per root and shared by listing, search, watching and whoever else asks, so
// that they all hide the same files.
func (f *Files) Matcher(r roots.Root) (*ignore.Matcher, error) { return f.matcher(r) }

// MIMEType is the type resources/read gives a file called name whose content
// starts with head; text says whether the content is UTF-8 text.
func (f *Files) MIMEType(name string, head []byte, text bool) string {
	return detectMIME(name, head, text)
}
