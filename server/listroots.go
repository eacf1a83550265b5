package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/fsres"
	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListRootsArgs are the arguments of list_roots: none.
type ListRootsArgs struct{}

// RootInfo describes one root in force.
type RootInfo struct {
	URI    string `json:"uri"`
	Path   string `json:"path"`
	Name   string `json:"name"`
	Source string `json:"source" jsonschema:"flag (the operator's --root) or client (the client's roots)"`
	File   bool   `json:"file,omitempty" jsonschema:"the root is a single file"`
	Git    bool   `json:"git" jsonschema:"the root lies in a Git repository"`
	// GrepIndex is grep's trigram index of the root, once a grep started one.
	GrepIndex *fsres.GrepIndex `json:"grep_index,omitempty" jsonschema:"grep's in-memory trigram index of the root: its state, files and bytes indexed, and the memory it holds"`
}

// ListRootsOut is the result of list_roots.
type ListRootsOut struct {
	Roots    []RootInfo `json:"roots"`
	Ignored  []string   `json:"ignored,omitempty" jsonschema:"client roots refused, with the reason"`
	Watching string     `json:"watching,omitempty" jsonschema:"the state of change notifications when degraded"`
	// Watches is set where watches cost file descriptors (kqueue: macOS, BSD).
	Watches *WatchCounts `json:"watches,omitempty" jsonschema:"where watching costs file descriptors (macOS, BSD): the descriptor budget and what is watched and polled within it"`
	Hint    string       `json:"hint,omitempty"`
}

// WatchCounts says how change notifications fit in the file descriptor budget (see package watch).
type WatchCounts struct {
	Budget      int `json:"budget" jsonschema:"file descriptors watches may hold: half the process's limit"`
	Descriptors int `json:"descriptors" jsonschema:"file descriptors watches hold now (an upper bound)"`
	Directories int `json:"directories" jsonschema:"directories watched"`
	Polled      int `json:"polled" jsonschema:"directories polled instead, past the budget: their changes arrive within the poll interval"`
	Files       int `json:"files" jsonschema:"subscribed files in polled directories, watched one by one"`
}

func (s *Server) addListRoots() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "list_roots",
		Title: "List roots",
		Description: "The directories (and single files) grove may use, where each came from (the operator's " +
			"--root or the client's roots), and whether each is a Git repository. Nothing outside them is reachable.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
	}, s.listRoots)
	s.tools.registered("list_roots")
}

func (s *Server) listRoots(_ context.Context, req *mcp.CallToolRequest, _ ListRootsArgs) (*mcp.CallToolResult, ListRootsOut, error) {
	sc, ask, dropped := s.requestScope(req)
	if ask != nil {
		return &mcp.CallToolResult{InputRequests: ask, RequestState: scope.RequestState}, ListRootsOut{}, nil
	}
	out := ListRootsOut{Roots: []RootInfo{}, Ignored: dropped}
	indexes := s.files.GrepIndexes()
	for _, r := range sc.Roots() {
		info := RootInfo{URI: r.URI, Path: r.Path, Name: r.Name, Source: string(r.Source), File: r.File, Git: gitAt(r)}
		if ix, ok := indexes[r.Path]; ok {
			info.GrepIndex = &ix
		}
		out.Roots = append(out.Roots, info)
	}
	if s.watchStatus != nil {
		out.Watching = s.watchStatus()
	}
	if s.watcher != nil {
		if st := s.watcher.w.Status(); st.Budget > 0 {
			out.Watches = &WatchCounts{Budget: st.Budget, Descriptors: st.Descriptors, Directories: st.Watches,
				Polled: st.Polled, Files: st.FileWatches}
		}
	}
	if len(out.Roots) == 0 {
		out.Hint = s.NoRoots(req).Error()
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.text()}}}, out, nil
}

func (o ListRootsOut) text() string {
	var b strings.Builder
	for _, r := range o.Roots {
		kind := "dir"
		if r.File {
			kind = "file"
		}
		git := ""
		if r.Git {
			git = ", git"
		}
		fmt.Fprintf(&b, "%s (%s, from %s%s)\n", r.Path, kind, r.Source, git)
		if ix := r.GrepIndex; ix != nil {
			fmt.Fprintf(&b, "  grep index: %s, %d files, %.1f MiB of text in %.1f MiB of memory", ix.State, ix.Files,
				float64(ix.TextBytes)/(1<<20), float64(ix.Bytes)/(1<<20))
			if ix.KeptBytes > 0 {
				fmt.Fprintf(&b, ", and %.1f MiB of small files' texts kept", float64(ix.KeptBytes)/(1<<20))
			}
			b.WriteByte('\n')
		}
	}
	for _, d := range o.Ignored {
		fmt.Fprintf(&b, "ignored client root: %s\n", d)
	}
	if o.Watching != "" {
		fmt.Fprintf(&b, "watching: %s\n", o.Watching)
	}
	if c := o.Watches; c != nil {
		fmt.Fprintf(&b, "watches: %d of a budget of %d file descriptors, for %s and %s; %s polled instead\n",
			c.Descriptors, c.Budget, words.Count(c.Directories, "directory", "directories"),
			words.Count(c.Files, "subscribed file", "subscribed files"), words.Count(c.Polled, "directory", "directories"))
	}
	if o.Hint != "" {
		b.WriteString(o.Hint + "\n")
	}
	return b.String()
}

// gitAt reports whether the Git tools can work on root itself: repository
// discovery never walks above a root, so the .git must sit at its top.
func gitAt(r roots.Root) bool {
	if r.File {
		return false
	}
	_, err := os.Lstat(filepath.Join(r.Path, ".git"))
	return err == nil
}
