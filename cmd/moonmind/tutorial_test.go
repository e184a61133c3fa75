package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTutorial runs every code block of docs/tutorial.md in order, in an
// empty folder: a lua block is written to the file its first line names
// ("-- farmer.lua"), and each "$ moonmind ..." line of a console block is
// run, its output (stdout, then stderr) compared with the lines under it.
// A block of any other kind fails the test, so none goes unchecked.
func TestTutorial(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "tutorial.md"))
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?ms)^```(\\w*)\\n(.*?)^```$").FindAllStringSubmatch(string(page), -1)
	require.GreaterOrEqual(t, len(blocks), 10, "the tutorial's blocks")
	t.Chdir(t.TempDir())
	ran := 0
	for i, b := range blocks {
		lang, body := b[1], b[2]
		switch lang {
		case "lua":
			name, ok := strings.CutPrefix(strings.SplitN(body, "\n", 2)[0], "-- ")
			require.True(t, ok, "lua block %d: its first line names its file, as -- farmer.lua", i+1)
			require.NoError(t, os.WriteFile(strings.TrimSpace(name), []byte(body), 0o644))
		case "console":
			for _, cmd := range consoleCommands(body) {
				if cmd.line == "go install ./cmd/moonmind" {
					continue // the set-up step: the test runs the command in process
				}
				args, ok := strings.CutPrefix(cmd.line, "moonmind ")
				require.True(t, ok, "console block %d: %q is not a moonmind command", i+1, cmd.line)
				out, errOut, _ := runMain(strings.Fields(args)...)
				assert.Equal(t, cmd.want, out+errOut, "block %d: $ %s", i+1, cmd.line)
				ran++
			}
		default:
			t.Fatalf("block %d is %q: the tutorial's blocks are lua files and console sessions", i+1, lang)
		}
	}
	assert.GreaterOrEqual(t, ran, 10, "moonmind commands run")
}

type consoleCommand struct{ line, want string }

// consoleCommands splits a console block into its "$ " commands, each
// with the output lines under it.
func consoleCommands(body string) []consoleCommand {
	var out []consoleCommand
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, consoleCommand{line: c})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].want += l + "\n"
		}
	}
	return out
}

// TestReadmeRole checks that the role on the README loads without a
// finding and plans as the README says.
func TestReadmeRole(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	m := regexp.MustCompile("(?ms)^```lua\\n(.*?)^```$").FindStringSubmatch(string(page))
	require.NotNil(t, m, "the README shows a role")
	path := filepath.Join(t.TempDir(), "farmer.lua")
	require.NoError(t, os.WriteFile(path, []byte(m[1]), 0o644))
	out, errOut, code := runMain("check", path)
	assert.Equal(t, 0, code, out+errOut)
	out, _, code = runMain("plan", path)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "plan: farm, cook, eat  [cost 4]\n")
	assert.Contains(t, string(page), "The planner chains `farm, cook, eat`")
}
