package fsres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/internal/unified"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EditArgs are the arguments of edit_file.
type EditArgs struct {
	Path   string   `json:"path" jsonschema:"text file to edit"`
	Edits  []EditOp `json:"edits" jsonschema:"replacements, applied in order"`
	DryRun bool     `json:"dry_run,omitempty" jsonschema:"show the diff without writing"`
}

// EditOp replaces the one occurrence of OldText with NewText.
type EditOp struct {
	OldText string `json:"old_text" jsonschema:"exact text to replace; must occur exactly once (include surrounding lines to make it unique)"`
	NewText string `json:"new_text" jsonschema:"replacement text"`
}

// Edited is what edit_file answers.
type Edited struct {
	Path    string `json:"path"`
	Diff    string `json:"diff" jsonschema:"unified diff of the change"`
	DryRun  bool   `json:"dry_run,omitempty"`
	Written bool   `json:"written"`
}

func (f *Files) editFile(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in EditArgs) (*mcp.CallToolResult, Edited, error) {
	if len(in.Edits) == 0 {
		return nil, Edited{}, errors.New("edits is empty")
	}
	loc, err := resolve(sc, in.Path)
	if err != nil {
		return nil, Edited{}, err
	}
	data, before, err := f.readAll(loc)
	if err != nil {
		return nil, Edited{}, toolError(in.Path, err)
	}
	if !isText(data) {
		return nil, Edited{}, fmt.Errorf("%s is not a UTF-8 text file; edit_file only edits text", in.Path)
	}
	old := string(data)
	updated, err := applyEdits(old, in.Edits)
	if err != nil {
		return nil, Edited{}, fmt.Errorf("%s: %w; nothing was written", in.Path, err)
	}
	out := Edited{Path: loc.Abs(), DryRun: in.DryRun, Diff: unified.Labeled("a/"+loc.Rel, "b/"+loc.Rel, old, updated)}
	if in.DryRun || updated == old {
		return textResult(out.text()), out, nil
	}
	if now, err := loc.Lstat(); err != nil || !now.ModTime().Equal(before.ModTime()) || now.Size() != before.Size() {
		return nil, Edited{}, fmt.Errorf("%s changed while it was being edited; nothing was written, read it again", in.Path)
	}
	if _, err := writeAtomic(loc, []byte(updated)); err != nil {
		return nil, Edited{}, writeError(in.Path, err)
	}
	out.Written = true
	return textResult(out.text()), out, nil
}

// applyEdits applies each edit to the result of the ones before it.
func applyEdits(text string, edits []EditOp) (string, error) {
	crlf := strings.Contains(text, "\r\n")
	for i, e := range edits {
		if e.OldText == "" {
			return "", fmt.Errorf("edit %d: old_text is empty", i+1)
		}
		if crlf && !strings.Contains(e.OldText, "\r") && strings.Count(text, e.OldText) == 0 {
			// Models write "\n"; a Windows-style file has "\r\n".
			e.OldText = strings.ReplaceAll(e.OldText, "\n", "\r\n")
			e.NewText = strings.ReplaceAll(e.NewText, "\n", "\r\n")
		}
		switch n := strings.Count(text, e.OldText); n {
		case 0:
			return "", fmt.Errorf("edit %d: old_text not found", i+1)
		case 1:
			text = strings.Replace(text, e.OldText, e.NewText, 1)
		default:
			return "", fmt.Errorf("edit %d: old_text occurs %d times; include more surrounding text to make it unique", i+1, n)
		}
	}
	return text, nil
}

func (e Edited) text() string {
	switch {
	case e.Diff == "":
		return e.Path + ": the edits change nothing"
	case e.DryRun:
		return "dry run, nothing written:\n" + e.Diff
	}
	return "edited " + e.Path + ":\n" + e.Diff
}
