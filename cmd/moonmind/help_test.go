package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkGolden compares got with testdata/NAME, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run the test with -update to create the golden file")
	assert.Equal(t, string(want), got)
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestEveryCommandExplainsItself(t *testing.T) {
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			_, ok := helps[name]
			require.True(t, ok, "helps has no entry for %q", name)
			out, errOut, code := runMain(name, "--help")
			require.Equal(t, 0, code, errOut)
			assert.Empty(t, errOut)
			assert.True(t, strings.HasPrefix(out, "usage: moonmind "+name), out)
			for _, part := range []string{"\narguments:\n", "\nexample:\n  moonmind " + name, "\nexit status:\n  0  success\n", "\n  2  "} {
				assert.Contains(t, out, part)
			}
			short, _, code := runMain(name, "-h")
			assert.Equal(t, 0, code)
			assert.Equal(t, out, short, "-h and --help print the same")
			viaHelp, _, code := runMain("help", name)
			assert.Equal(t, 0, code)
			assert.Equal(t, out, viaHelp, "moonmind help %s prints the command's help", name)
			checkGolden(t, filepath.Join("help", name+".golden"), out)
		})
	}
}

// TestOneFlagSpelling checks that the usage line of every command names
// exactly the flags its flag set defines, each spelled --name, and that
// the help lists them spelled the same way.
func TestOneFlagSpelling(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  (-+)([a-z][a-z-]*)`)
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			out, _, code := runMain("help", name)
			require.Equal(t, 0, code)
			flagsPart := out
			if i := strings.Index(out, "\nflags:\n"); i >= 0 {
				flagsPart = out[i:]
				if j := strings.Index(flagsPart[1:], "\n\n"); j >= 0 {
					flagsPart = flagsPart[:j+1]
				}
			} else {
				flagsPart = ""
			}
			var defined []string
			for _, m := range flagLine.FindAllStringSubmatch(flagsPart, -1) {
				assert.Equal(t, "--", m[1], "flag %s is listed as %s%s", m[2], m[1], m[2])
				defined = append(defined, m[2])
			}
			var inUsage []string
			for f := range usageFlags(commands[name].usage) {
				inUsage = append(inUsage, f)
			}
			sort.Strings(inUsage)
			assert.Equal(t, defined, inUsage, "the usage line names the flags the command defines")
		})
	}
}

func TestHelpErrors(t *testing.T) {
	out, errOut, code := runMain("help")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "exit status: 0 success, 1 a finding or a failed plan, 2 bad input")
	assert.Contains(t, out, "  moonmind plan FILE")

	_, errOut, code = runMain("help", "plna")
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind help: unknown command \"plna\" (did you mean \"plan\"?)\n", errOut)

	_, errOut, code = runMain("chek", "x.lua")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "moonmind: unknown command \"chek\" (did you mean \"check\"?)\n")

	// A bad flag prints the error, the usage line and where to find more,
	// on stderr, and exits 2.
	out, errOut, code = runMain("plan", soldier, "--bogus")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "moonmind plan: unknown flag --bogus\n"+
		"usage: moonmind "+commands["plan"].usage+"\nrun 'moonmind help plan' for more\n", errOut)
}

func TestRunHelpListsTheTrainingGround(t *testing.T) {
	var offered []string
	for n := range newTrainingGround().host() {
		offered = append(offered, n)
	}
	sort.Strings(offered)
	var documented []string
	for n := range groundMethods {
		documented = append(documented, n)
	}
	sort.Strings(documented)
	require.Equal(t, offered, documented, "groundMethods documents every host method the training ground offers")

	out, _, code := runMain("help", "run")
	require.Equal(t, 0, code)
	for _, n := range offered {
		assert.Contains(t, out, "\n  npc:"+n+"(", "run --help lists %s", n)
	}

	// The LuaLS stubs annotate each of them, so an editor knows them.
	stubs, err := os.ReadFile(filepath.Join("..", "..", "scripts", "types", "moonmind.lua"))
	require.NoError(t, err)
	for _, n := range offered {
		assert.Regexp(t, `(?m)^function NPC:`+n+`\(`, string(stubs), "scripts/types/moonmind.lua annotates the training ground's %s", n)
	}
}

// splitShell splits a command line at spaces outside single quotes.
func splitShell(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, has := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, has = !quoted, true
		case r == ' ' && !quoted:
			if has {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

// TestHelpExamplesAreTrue runs the example of every command that needs no
// server or trace file and checks that it prints what its help says.
func TestHelpExamplesAreTrue(t *testing.T) {
	for _, name := range []string{"check", "plan", "utility", "run", "eval", "apply", "graph"} {
		t.Run(name, func(t *testing.T) {
			lines := strings.Split(helps[name].example, "\n")
			// The examples are written from the repository's root.
			fromHere := func(s string) string {
				s = strings.ReplaceAll(" "+s, " cmd/moonmind/", " ")[1:]
				return strings.ReplaceAll(s, "scripts/", filepath.Join("..", "..", "scripts")+"/")
			}
			args := splitShell(fromHere(lines[0]))
			require.Equal(t, "moonmind", args[0])
			out, errOut, code := runMain(args[1:]...)
			want := 0
			if strings.Contains(helps[name].example, ": error: ") {
				want = 1 // the example shows a finding
			}
			require.Equal(t, want, code, errOut)
			for _, l := range lines[1:] {
				assert.Contains(t, out, fromHere(strings.TrimPrefix(l, "  "))+"\n")
			}
		})
	}
}
