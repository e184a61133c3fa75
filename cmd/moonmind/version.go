package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func init() {
	commands["version"] = command{what: "print the version of moonmind", usage: "version", run: versionCmd}
	helps["version"] = helpText{
		args:    "none",
		example: "moonmind version\n  moonmind devel 6d887521c2b4 (go1.25.0)",
		exits:   "2  an argument was given",
		more: "The version is the module version the binary was built from (go install ...@v0.4.0); a binary\n" +
			"built from a checkout says devel, with the commit when the build recorded one.\n" +
			"moonmind --version prints the same.",
	}
}

func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", stderr)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "moonmind version: expected no arguments, got %d\n", len(pos))
		return 2
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionLine(info))
	return 0
}

// versionLine is what moonmind version prints for the build info of the
// binary (nil when it has none): the main module's version, or devel
// with the commit (12 digits, "+dirty" for uncommitted changes) when
// the build recorded one, then the Go version.
func versionLine(info *debug.BuildInfo) string {
	if info == nil {
		return "moonmind devel"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
		rev, dirty := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			v += " " + rev[:min(12, len(rev))]
			if dirty {
				v += "+dirty"
			}
		}
	}
	return "moonmind " + v + " (" + info.GoVersion + ")"
}
