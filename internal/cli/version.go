package cli

import (
	"runtime"
	"runtime/debug"
)

// Version is grove's version: ldflags, the one the release build sets with
// -ldflags "-X main.version=...", else what the build recorded (see
// versionFrom).
func Version(ldflags string) string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(ldflags, bi)
}

// versionFrom picks the most precise version known: ldflags's; the module's
// (go install ...@v1.2.3, or the pseudo-version Go derives from the
// repository, v0.0.0-20260101120000-abcdef123456); the commit, as
// devel-<12 hex digits>, "+dirty" when the worktree had changes; else
// "devel" (built with -buildvcs=false outside a module download).
func versionFrom(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev == "" {
		return "devel"
	}
	return "devel-" + rev + dirty
}

// VersionLine is what grove --version prints: a bare "devel" says why no
// version is known.
func VersionLine(v string) string {
	if v == "devel" {
		return "grove devel (" + runtime.Version() + "; built without a version or commit: " +
			"use go install, or go build with VCS stamping, not -buildvcs=false)"
	}
	return "grove " + v
}
