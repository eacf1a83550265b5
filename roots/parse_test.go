package roots_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/roots"
)

func TestParse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	for _, tt := range []struct {
		uri, want, wantErr string
	}{
		{uri: "file:///a/b", want: "/a/b"},
		{uri: "file:///", want: "/"},
		{uri: "file:///a/b/", want: "/a/b"},
		{uri: "file://localhost/a", want: "/a"},
		{uri: "file://LOCALHOST/a", want: "/a"},
		{uri: "FILE:///a", want: "/a"},
		{uri: "File:///a", want: "/a"},
		{uri: "file:///a%20b", want: "/a b"},
		{uri: "file:///a%2525", want: "/a%25"},
		{uri: "file:///a%25", want: "/a%"},
		{uri: "file:///a/%2e%2e/b", want: "/b"},
		{uri: "file:///a/%2E%2E/%2e%2E/b", want: "/b"},
		{uri: "file:///a/./b/../c", want: "/a/c"},
		{uri: "file:///a%2Fb", want: "/a/b"},
		{uri: "file:///a%3Fb", want: "/a?b"},
		{uri: "file:///a%23b", want: "/a#b"},
		{uri: "file:///%E2%82%AC", want: "/€"},
		{uri: "file:///€", want: "/€"},
		{uri: "file:///a+b", want: "/a+b"},
		{uri: "file:////a", want: "/a"},
		{uri: "file://host/a", wantErr: "not this machine"},
		{uri: "file://localhost:80/a", wantErr: "not this machine"},
		{uri: "file://user@/a", wantErr: "not this machine"},
		{uri: "file://%6cocalhost/a", wantErr: "not this machine"},
		{uri: "file://", wantErr: "missing path"},
		{uri: "file://localhost", wantErr: "missing path"},
		{uri: "file:a", wantErr: "want file:///absolute/path"},
		{uri: "file:/a", wantErr: "want file:///absolute/path"},
		{uri: "file:", wantErr: "want file:///absolute/path"},
		{uri: "file:./a", wantErr: "want file:///absolute/path"},
		{uri: "a/b", wantErr: "only file:// URIs"},
		{uri: "./a", wantErr: "only file:// URIs"},
		{uri: "../a", wantErr: "only file:// URIs"},
		{uri: "/a", wantErr: "only file:// URIs"},
		{uri: "", wantErr: "only file:// URIs"},
		{uri: "http://x/a", wantErr: "only file:// URIs"},
		{uri: "files:///a", wantErr: "only file:// URIs"},
		{uri: "file:///a%00b", wantErr: "NUL"},
		{uri: "file:///a%00", wantErr: "NUL"},
		{uri: "file:///a?b", wantErr: "queries and fragments"},
		{uri: "file:///a?", wantErr: "queries and fragments"},
		{uri: "file:///a#b", wantErr: "queries and fragments"},
		{uri: "file:///a#", wantErr: "queries and fragments"},
		{uri: "file:///a%zz", wantErr: "bad percent-encoding"},
		{uri: "file:///a%2", wantErr: "bad percent-encoding"},
		{uri: "file:///a%", wantErr: "bad percent-encoding"},
	} {
		t.Run(tt.uri, func(t *testing.T) {
			got, err := roots.Parse(tt.uri)
			if !checkErr(t, "Parse", err, tt.wantErr) {
				return
			}
			if got != tt.want {
				t.Errorf("Parse(%q) = %q, want %q", tt.uri, got, tt.want)
			}
		})
	}
}

func TestParseErrorNamesInput(t *testing.T) {
	const uri = "file://evil.example/etc/passwd"
	_, err := roots.Parse(uri)
	if err == nil {
		t.Fatalf("Parse(%q) succeeded", uri)
	}
	if want := `"` + uri + `"`; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not quote the input %s", err, want)
	}
}

func TestURIRoundTrip(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	for _, p := range []string{
		"/",
		"/a",
		"/a/b c",
		"/a b/c  d",
		"/100%",
		"/a%20b",
		"/a%2525",
		"/a#b",
		"/a?b",
		"/a?b#c",
		"/a;b=c&d,e",
		"/a+b",
		"/a:b",
		"/~user/.git",
		"/€/日本語/ünïcödé",
		"/a\\b",
		"/tab\there",
		"/new\nline",
		"/\xff\xfe",
		"/%2e%2e/x",
		"/..x/x..",
		"/*",
	} {
		t.Run(p, func(t *testing.T) {
			uri := roots.URI(p)
			got, err := roots.Parse(uri)
			if err != nil {
				t.Fatalf("Parse(URI(%q) = %q): %v", p, uri, err)
			}
			if got != p {
				t.Errorf("Parse(URI(%q) = %q) = %q", p, uri, got)
			}
			if !roots.IsURI(uri) {
				t.Errorf("IsURI(%q) = false", uri)
			}
		})
	}
}

func TestURI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	for _, tt := range []struct{ path, want string }{
		{"/", "file:///"},
		{"/a/b", "file:///a/b"},
		{"/a b", "file:///a%20b"},
		{"/a%b", "file:///a%25b"},
		{"/a#b", "file:///a%23b"},
		{"/a?b", "file:///a%3Fb"},
		{"/€", "file:///%E2%82%AC"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			if got := roots.URI(tt.path); got != tt.want {
				t.Errorf("URI(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestIsURI(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"file:///x", true},
		{"FILE:///x", true},
		{"http://x", true},
		{"git+ssh://x", true},
		{"file:", true},
		{"/x", false},
		{`C:\x`, false},
		{"c:/x", false},
		{"x", false},
		{"a/b:c", false},
		{"", false},
	} {
		t.Run(tt.s, func(t *testing.T) {
			if got := roots.IsURI(tt.s); got != tt.want {
				t.Errorf("IsURI(%q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}
