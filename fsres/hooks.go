package fsres

import (
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server's hooks into fsres for change notifications.

// resourceTemplate is the one resource template: every file under the roots.
var resourceTemplate = &mcp.ResourceTemplate{
	URITemplate: "file:///{+path}",
	Name:        "file",
	Title:       "Files under the roots",
	Description: "A file or directory inside one of the roots. Directories read as a listing (inode/directory).",
}

func (f *Files) addTemplate(s *mcp.Server) {
	s.AddResourceTemplate(resourceTemplate, scope.Resource(f.opts.Scope, f.read))
}

// ListChanged sends notifications/resources/list_changed to s's sessions.
// The SDK has no call for it: adding the template again sends it, and the
// SDK coalesces bursts of them into one.
func (f *Files) ListChanged(s *mcp.Server) { f.addTemplate(s) }

// Ignored reports whether abs, inside sc, is excluded by .gitignore rules,
// with the matchers that listing and search use.
func (f *Files) Ignored(sc *roots.Scope, abs string, isDir bool) bool {
	loc, ok := sc.Locate(abs)
	if !ok || loc.Root.File || loc.Rel == "." {
		return false
	}
	m, err := f.matcher(loc.Root)
	if err != nil {
		return false
	}
	return m.Ignored(loc.Rel, isDir)
}
