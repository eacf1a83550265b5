package fsres

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ResolveResource resolves a resource URI the one way every request that
// names a resource does (resources/read, subscribe, unsubscribe, and the
// server's check before it sends an update): the scope's lexical test, then
// the file system through os.Root, so that a symlink leaving the roots, to a
// file or a directory, dangling or not, is not found, exactly like a missing
// file. exists is false for a name that lies inside and does not exist (yet):
// a subscription may wait for it, a read may not. err is the error a read
// answers.
func ResolveResource(sc *roots.Scope, uri string) (loc roots.Loc, exists bool, err error) {
	loc, err = sc.Resolve(uri)
	if err != nil {
		return roots.Loc{}, false, ResourceNotFound(uri) // malformed, outside and missing read alike
	}
	_, err = loc.Stat()
	switch {
	case err == nil:
		return loc, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return loc, false, nil
	case isEscapeErr(err):
		return roots.Loc{}, false, ResourceNotFound(uri)
	}
	return loc, true, nil // it is there (a permission error, say): opening it tells the rest
}

// ResourceNotFound is the error for a resource that is missing or outside
// the roots. Its data is encoded by encoding/json: the SDK's
// mcp.ResourceNotFoundError formats the URI with %q, whose escapes (\x00,
// \a) are not JSON, and the session's writer fails on the whole message.
func ResourceNotFound(uri string) error {
	data, _ := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri}) // a struct of one string always marshals
	return &jsonrpc.Error{Code: mcp.CodeResourceNotFound, Message: "Resource not found", Data: data}
}
