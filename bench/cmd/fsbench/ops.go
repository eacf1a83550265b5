package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An op is one timed workload. Its check value (a size, a count, or a sorted
// path list) is compared with what the workload should give, so a server that
// answers fast by answering less is caught.
type op struct {
	name string
	want string // expected check value
}

const numOps = 5

var ops = [numOps]op{
	{"read 1 MiB", fmt.Sprint(benchutil.BigFileSize)},
	{"list 1,000 entries", fmt.Sprint(benchutil.ListEntries)},
	{"glob 20,000 files", fmt.Sprint(benchutil.GlobMatching)},
	{"tree 2,000 entries", fmt.Sprint(benchutil.TreeEntries)},
	// grove's list_directory always gives sizes; the reference's
	// list_directory gives names and types only, list_directory_with_sizes
	// sizes too. This row compares like with like.
	{"list 1,000 entries with sizes (reference: list_directory_with_sizes)", fmt.Sprint(benchutil.ListEntries)},
}

// A flavor knows how to start one server and phrase each op for it. run
// returns the time of the op's one tool call; its check runs after the clock
// has stopped.
type flavor struct {
	name string
	argv func(root string) []string
	run  func(c *benchutil.Raw, root string, i int) (d time.Duration, check string, paths []string, err error)
}

// call makes one timed tool call and returns its result and text.
func call(c *benchutil.Raw, d *time.Duration, tool string, args map[string]any) (*mcp.CallToolResult, string, error) {
	res, took, err := c.CallTool(tool, args)
	*d = took
	text, err := benchutil.Text(res, err)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", tool, err)
	}
	return res, text, nil
}

// structured decodes a result's structuredContent into v.
func structured(res *mcp.CallToolResult, v any) error {
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func groveFlavor(bin string) flavor {
	return flavor{name: "grove", argv: func(root string) []string { return []string{bin, "--root", root} }, run: groveOp}
}

func groveOp(c *benchutil.Raw, root string, i int) (d time.Duration, check string, paths []string, err error) {
	switch i {
	case 0:
		// The text comes once, in the content block, after a header line.
		_, text, err := call(c, &d, "read_file", map[string]any{"path": root + "/big.txt"})
		if err != nil {
			return d, "", nil, err
		}
		_, content, _ := strings.Cut(text, "\n")
		return d, fmt.Sprint(len(content)), nil, nil
	case 1, 4:
		res, _, err := call(c, &d, "list_directory", map[string]any{"path": root + "/list"})
		if err != nil {
			return d, "", nil, err
		}
		var out struct{ Entries []json.RawMessage }
		err = structured(res, &out)
		return d, fmt.Sprint(len(out.Entries)), nil, err
	case 2:
		res, _, err := call(c, &d, "search_files", map[string]any{"path": root + "/glob", "pattern": "**/*.txt", "max_results": 1_000_000})
		if err != nil {
			return d, "", nil, err
		}
		var out struct{ Matches []string }
		err = structured(res, &out)
		slices.Sort(out.Matches)
		return d, fmt.Sprint(len(out.Matches)), out.Matches, err
	default:
		res, _, err := call(c, &d, "directory_tree", map[string]any{"path": root + "/tree", "max_depth": 100, "max_entries": 1_000_000})
		if err != nil {
			return d, "", nil, err
		}
		var out struct{ Entries []json.RawMessage }
		err = structured(res, &out)
		return d, fmt.Sprint(len(out.Entries)), nil, err
	}
}

func refFlavor(script string) flavor {
	return flavor{name: "reference", argv: func(root string) []string { return []string{"node", script, root} }, run: refOp}
}

func refOp(c *benchutil.Raw, root string, i int) (d time.Duration, check string, paths []string, err error) {
	switch i {
	case 0:
		_, text, err := call(c, &d, "read_text_file", map[string]any{"path": root + "/big.txt"})
		return d, fmt.Sprint(len(text)), nil, err
	case 1:
		_, text, err := call(c, &d, "list_directory", map[string]any{"path": root + "/list"})
		return d, fmt.Sprint(strings.Count(text, "[FILE]") + strings.Count(text, "[DIR]")), nil, err
	case 4:
		_, text, err := call(c, &d, "list_directory_with_sizes", map[string]any{"path": root + "/list"})
		return d, fmt.Sprint(strings.Count(text, "[FILE]") + strings.Count(text, "[DIR]")), nil, err
	case 2:
		_, text, err := call(c, &d, "search_files", map[string]any{"path": root + "/glob", "pattern": "**/*.txt"})
		if err != nil {
			return d, "", nil, err
		}
		var rel []string
		for _, p := range strings.Split(strings.TrimSpace(text), "\n") {
			rel = append(rel, strings.TrimPrefix(p, root+"/glob/"))
		}
		slices.Sort(rel)
		return d, fmt.Sprint(len(rel)), rel, nil
	default:
		_, text, err := call(c, &d, "directory_tree", map[string]any{"path": root + "/tree"})
		if err != nil {
			return d, "", nil, err
		}
		var nodes []treeNode
		if err := json.Unmarshal([]byte(text), &nodes); err != nil {
			return d, "", nil, err
		}
		return d, fmt.Sprint(countNodes(nodes)), nil, nil
	}
}

type treeNode struct {
	Name     string     `json:"name"`
	Children []treeNode `json:"children"`
}

func countNodes(ns []treeNode) int {
	n := len(ns)
	for _, c := range ns {
		n += countNodes(c.Children)
	}
	return n
}
