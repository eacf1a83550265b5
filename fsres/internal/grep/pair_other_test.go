//go:build !amd64 || purego

package grep

import "testing"

// pairModes is the word-wide scan alone: there is no vector filter here.
func pairModes() []pairMode {
	return []pairMode{{"words", func(testing.TB) {}}}
}
