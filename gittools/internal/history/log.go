// Package history owns git_log's engine: its arguments and answer, the
// query (revision ranges, path, author, grep, dates) and the walk over the
// commit graph that answers it, within the scan limit it states.
//
//	q, err := history.NewQuery(rp, sc, in)
//	out, err := history.Log(rp, ctx, q)
//	text := history.Format(out, q)
package history

import (
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// LogArgs are the arguments of git_log.
type LogArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; with several, the root holding path when path is absolute)"`
	MaxCount int    `json:"max_count,omitempty" jsonschema:"most commits to return (default 20, at most 1000)"`
	Revision string `json:"revision,omitempty" jsonschema:"where to start (branch, tag, hash, HEAD~3; default HEAD), or a range a..b"`
	Path     string `json:"path,omitempty" jsonschema:"only commits that change this file or directory (relative to the worktree, or absolute)"`
	Author   string `json:"author,omitempty" jsonschema:"only commits whose author 'Name <email>' matches this regular expression"`
	Since    string `json:"since,omitempty" jsonschema:"only commits committed after this date (YYYY-MM-DD, RFC 3339, '2 weeks ago')"`
	Until    string `json:"until,omitempty" jsonschema:"only commits committed before this date"`
	Grep     string `json:"grep,omitempty" jsonschema:"only commits whose message matches this regular expression"`
}

// LogOut is the structured result of git_log.
type LogOut struct {
	Commits []repo.CommitInfo `json:"commits" jsonschema:"newest first (committer time), like git log"`
	More    bool              `json:"more,omitempty" jsonschema:"max_count was reached: older matching commits may exist"`
	Scanned int               `json:"scanned,omitempty" jsonschema:"set when the walk stopped at its budget: commits examined"`
	Resume  string            `json:"resume,omitempty" jsonschema:"set when the walk stopped at its budget: pass as revision to continue"`
}

const (
	DefaultCount = 20
	MaxCount     = 1000
)

func Format(out LogOut, q Query) string {
	var b strings.Builder
	n := 0
	for _, c := range out.Commits {
		n += 7 + 1 + 10 + 1 + len(c.Author) + 2 + len(c.Subject) + 1
	}
	b.Grow(n + 200)
	for _, c := range out.Commits { // "%s %s %s: %s\n"; WriteString is several times cheaper than Fprintf here
		b.WriteString(c.Hash[:7])
		b.WriteByte(' ')
		b.WriteString(c.Date[:10])
		b.WriteByte(' ')
		b.WriteString(c.Author)
		b.WriteString(": ")
		b.WriteString(c.Subject)
		b.WriteByte('\n')
	}
	if len(out.Commits) == 0 {
		b.WriteString("no commits\n")
	}
	if out.Resume != "" {
		fmt.Fprintf(&b, "… stopped after examining %d commits without filling max_count; pass revision=%s to continue the search\n",
			out.Scanned, out.Resume[:12])
	}
	if out.More {
		fmt.Fprintf(&b, "… stopped at max_count=%d; pass a larger max_count, or revision=%s~1 for older commits\n",
			q.Max, out.Commits[len(out.Commits)-1].Hash[:12])
	}
	return b.String()
}
