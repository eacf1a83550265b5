// Package linediff gives the git tools the line diff of [github.com/grove-mcp/grove/internal/linediff],
// under the names blame and merge use. It adds nothing: the engine lives in internal/linediff so that
// edit_file (fsres), which must not import gittools, diffs with the same code.
//
//	var d linediff.Differ
//	for _, c := range d.Diff(d.Text(old), d.Text(new)) {
//		// old[c.A0:c.A1] became new[c.B0:c.B1]
//	}
package linediff

import "github.com/grove-mcp/grove/internal/linediff"

type (
	// Change replaces lines [A0, A1) of the old text by lines [B0, B1) of the new one.
	Change = linediff.Change
	// Text is a text's lines as a [Differ] sees them.
	Text = linediff.Text
	// Differ diffs texts it prepared itself.
	Differ = linediff.Differ
	// Profile counts a text's content by line for [Similarity].
	Profile = linediff.Profile
)

// DefaultBudget bounds the work of one Diff.
const DefaultBudget = linediff.DefaultBudget

// Diff returns the changes that turn lines a into lines b, in order.
func Diff(a, b []string) []Change { return linediff.Diff(a, b) }

// Histogram returns git's histogram diff of a and b, the line diff of merges.
func Histogram(a, b []string) []Change { return linediff.Histogram(a, b) }

// NewProfile profiles data.
func NewProfile(data []byte) Profile { return linediff.NewProfile(data) }

// Similarity returns how much of two texts is the same content, from 0 to 1.
func Similarity(a, b Profile) float64 { return linediff.Similarity(a, b) }
