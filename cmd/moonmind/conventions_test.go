package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlagErrorsUseTheHelpSpelling checks that a bad flag is named with
// two dashes, as the help writes it, after the command's name, with a
// did-you-mean when a flag of the command is close.
func TestFlagErrorsUseTheHelpSpelling(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		args   []string
		first  string
	}{
		{"near miss", "tick is one edit from ticks", []string{"run", soldier, "--tick", "3"}, "moonmind run: unknown flag --tick (did you mean --ticks?)"},
		{"single dash", "one dash is read as two", []string{"plan", soldier, "-stat", "a=1"}, "moonmind plan: unknown flag --stat (did you mean --state?)"},
		{"nothing near", "", []string{"plan", soldier, "--bogus"}, "moonmind plan: unknown flag --bogus"},
		{"missing value", "", []string{"plan", soldier, "--goal"}, "moonmind plan: flag needs an argument: --goal"},
		{"bad number", "", []string{"run", soldier, "--ticks", "x"}, `moonmind run: invalid value "x" for flag --ticks: parse error`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			lines := strings.Split(errOut, "\n")
			require.Len(t, lines, 4, errOut)
			assert.Equal(t, tc.first, lines[0], tc.reason)
			assert.Equal(t, "usage: moonmind "+commands[tc.args[0]].usage, lines[1])
		})
	}
}

// TestVersion checks moonmind version and --version, and the line for
// each kind of build.
func TestVersion(t *testing.T) {
	line := regexp.MustCompile(`^moonmind \S+.* \(go[0-9.]+.*\)\n$`)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errOut, code := runMain(args...)
		assert.Equal(t, 0, code, args)
		assert.Empty(t, errOut)
		assert.Regexp(t, line, out, args)
	}
	_, errOut, code := runMain("version", "now")
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind version: expected no arguments, got 1\n", errOut)

	tagged := &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Version: "v1.2.3"}}
	assert.Equal(t, "moonmind v1.2.3 (go1.25.0)", versionLine(tagged))
	checkout := &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "6d887521c2b4e5f6a7b8"}, {Key: "vcs.modified", Value: "true"}}}
	assert.Equal(t, "moonmind devel 6d887521c2b4+dirty (go1.25.0)", versionLine(checkout))
	assert.Equal(t, "moonmind devel", versionLine(nil))
}

// TestLoadErrorsWithoutPackageNames checks that a role that cannot be
// opened is reported after the command's name, not the library's
// package, and that a syntax error keeps its file:line:col.
func TestLoadErrorsWithoutPackageNames(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.lua")
	for _, cmd := range []string{"plan", "utility", "graph", "run"} {
		_, errOut, code := runMain(cmd, missing)
		assert.Equal(t, 2, code, cmd)
		assert.Equal(t, "moonmind "+cmd+": open "+missing+": no such file or directory\n", errOut, cmd)
	}

	noEnd := filepath.Join(t.TempDir(), "farmer.lua")
	require.NoError(t, os.WriteFile(noEnd, []byte("return {\n  name = \"Farmer\",\n  actions = {\n"+
		"    { name = \"eat\", run = function(npc)\n      npc:wait(1)\n    },\n  },\n}\n"), 0o644))
	want := noEnd + `:6:5: syntax error near '}': is an "end" missing? the function that begins on line 4 is still open here`
	_, errOut, code := runMain("plan", noEnd)
	assert.Equal(t, 2, code)
	assert.Equal(t, want+"\n", errOut)
	out, _, code := runMain("check", noEnd)
	assert.Equal(t, 1, code)
	assert.Equal(t, strings.Replace(want, ": syntax", ": error: syntax", 1)+"\n", out, "check suggests the end, not a comma")
}
