package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tt := range []struct {
		name    string
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"ldflags win", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: settings("vcs.revision", rev)}, "v1.2.3"},
		{"no build info", "", nil, "devel"},
		{"module version (go install ...@v1.4.0)", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"pseudo-version from the repository", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125163929-ab590ec9074b+dirty"}},
			"v0.0.0-20261125163929-ab590ec9074b+dirty"},
		{"commit only", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", rev, "vcs.modified", "false")},
			"devel-0123456789ab"},
		{"modified commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.modified", "true", "vcs.revision", rev)},
			"devel-0123456789ab+dirty"},
		{"short revision", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", "abc")}, "devel-abc"},
		{"-buildvcs=false", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("-buildmode", "exe")}, "devel"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionFrom(tt.ldflags, tt.bi); got != tt.want {
				t.Errorf("versionFrom(%q, …) = %q, want %q", tt.ldflags, got, tt.want)
			}
		})
	}
}

func TestVersionLine(t *testing.T) {
	if got := VersionLine("v1.2.3"); got != "grove v1.2.3" {
		t.Errorf("VersionLine(v1.2.3) = %q", got)
	}
	if got := VersionLine("devel"); !strings.HasPrefix(got, "grove devel (go") || !strings.Contains(got, "-buildvcs=false") {
		t.Errorf("VersionLine(devel) = %q, want it to say why no version is known", got)
	}
}
