package gittools

import (
	"context"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registerReadTools adds the tools that only read repositories.
func (r *Repos) registerReadTools(s *mcp.Server) {
	r.addStatus(s)
	r.addLog(s)
	r.addDiff(s)
	r.addShow(s)
	r.addBlame(s)
	r.addBranch(s)
	r.addTag(s)
}

// progressFunc returns a callback sending progress notifications for req, or nil when the client sent no token.
func progressFunc(ctx context.Context, req *mcp.CallToolRequest, message string) func(int) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(n int) {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(n), Message: message,
		})
	}
}

// quotePath quotes a path the way git does with core.quotePath on: paths with control characters, quotes,
// backslashes or non-ASCII bytes are written C-style in double quotes with octal escapes.
func quotePath(p string) string {
	plain := true
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a', '\b', '\t', '\n', '\v', '\f', '\r':
			b.WriteByte('\\')
			b.WriteByte("abtnvfr"[strings.IndexByte("\a\b\t\n\v\f\r", c)])
		default:
			if c < 0x20 || c >= 0x7f {
				b.WriteByte('\\')
				b.WriteString(strconv.FormatInt(int64(c)|0o400, 8)[1:])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// isBinary applies git's rule: a NUL byte in the first 8000 bytes.
func isBinary(data []byte) bool {
	if len(data) > 8000 {
		data = data[:8000]
	}
	return strings.IndexByte(string(data), 0) >= 0
}
