package ignore

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConfigApply(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       gitConfig
	}{
		{"plain", "[core]\n\texcludesFile = /x/ignore\n", gitConfig{excludesFile: "/x/ignore", hashSize: 20}},
		{"case", "[Core]\n\tEXCLUDESFILE=/x\n", gitConfig{excludesFile: "/x", hashSize: 20}},
		{"home", "[core]\nexcludesfile = ~/ig\n", gitConfig{excludesFile: "/home/u/ig", hashSize: 20}},
		{"quoted", "[core]\nexcludesfile = \"/a b/#c\" # comment\n", gitConfig{excludesFile: "/a b/#c", hashSize: 20}},
		{"comment", "[core]\nexcludesfile = /a ; comment\n", gitConfig{excludesFile: "/a", hashSize: 20}},
		{"escapes", "[core]\nexcludesfile = \"/a\\\\b\\\"c\"\n", gitConfig{excludesFile: "/a\\b\"c", hashSize: 20}},
		{"other section", "[user]\nexcludesfile = /no\n", gitConfig{hashSize: 20}},
		{"subsection", "[core \"x\"]\nexcludesfile = /no\n", gitConfig{hashSize: 20}},
		{"inline header", "[core] excludesfile = /in\n", gitConfig{excludesFile: "/in", hashSize: 20}},
		{"last wins", "[core]\nexcludesfile = /1\nexcludesfile = /2\n", gitConfig{excludesFile: "/2", hashSize: 20}},
		{"continuation", "[core]\nexcludesfile = /a\\\n/b\n", gitConfig{excludesFile: "/a/b", hashSize: 20}},
		{"sha256", "[extensions]\n\tobjectFormat = sha256\n", gitConfig{hashSize: 32}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := gitConfig{hashSize: 20}
			got.apply(tt.text, "/home/u", false)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(gitConfig{})); diff != "" {
				t.Errorf("apply(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}
