package main

import (
	"runtime/debug"
	"strings"
)

// version is what `referee --version` prints: the module version the build recorded (a
// tagged or pseudo-version with `go install`, "(devel)" in a plain checkout build), and
// the VCS revision and its time when the build saw a repository.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var parts []string
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		r := "revision " + rev[:min(12, len(rev))]
		if modified {
			r += " (modified)"
		}
		parts = append(parts, r)
	}
	if at != "" {
		parts = append(parts, at)
	}
	parts = append(parts, info.GoVersion)
	return v + ", " + strings.Join(parts, ", ")
}
