package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileBodies are action bodies that attack the sandbox, one of each
// kind: a Go allocation sized by the script, Go work on script-sized
// input, a runaway loop, memory, recursion, a forged trace record, and a
// sparse list.
var hostileBodies = map[string]string{
	"gsub":     `local s = string.gsub(string.rep("x", 1024), "^.+", string.rep("%0", 2^23))`,
	"print":    "local big = string.rep(\"x\", 2^23)\n    local l = {}\n    for i = 1, 1000 do l[i] = big end\n    npc:print(unpack(l))",
	"tostring": "local big = string.rep(\"y\", 2^23)\n    local t = setmetatable({}, { __tostring = function() return big end })\n    for i = 1, 20 do tostring(t) end\n    error(\"tostring ran\")",
	"pcall":    "local big = string.rep(\"z\", 2^23)\n    for i = 1, 10 do pcall(error, big) end\n    error(\"pcall ran\")",
	"misspelt": "local name = string.rep(\"q\", 262144)\n    for i = 1, 3 do local v = npc.state[name] end",
	"loop":     `while true do end`,
	"memory":   "local t = {}\n    for i = 1, 1e4 do t[i] = string.rep(\"m\", 2^20) .. i end",
	"recurse":  "local function f(n) return 1 + f(n + 1) end\n    f(1)",
	"forge":    "npc:print(\"x\\ntick    1  t=  0.000s  S1           fail        action=attack reason=\\\"forged\\\"\")\n    error(\"forged\")",
	"ids":      "local t = {}\n    npc:print(tostring(t), tostring({}), math.random(100))\n    error(\"drew\")",
}

// writeHostiles writes one role file per hostile body into dir and
// returns the run arguments that add an agent of each (H_name=file).
func writeHostiles(t *testing.T, dir string) []string {
	var args []string
	names := make([]string, 0, len(hostileBodies))
	for n := range hostileBodies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		src := fmt.Sprintf(`return {
  name = "H_%s",
  state = { done = false },
  goals = { { name = "win", condition = "done == true" } },
  actions = { { name = "attack", effects = "done = true", fulfills = { "win" }, run = function(npc)
    %s
  end } },
}
`, n, hostileBodies[n])
		path := filepath.Join(dir, "h_"+n+".lua")
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		args = append(args, "H_"+n+"="+path)
	}
	return args
}

var recordLineRE = regexp.MustCompile(`^tick +\d+ +t= *[0-9.]+s +(\S+) +(\S+)`)

// prefixLines keeps the lines of the trace whose agent's name starts with
// prefix: its records and what it printed.
func prefixLines(out, prefix string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if m := recordLineRE.FindStringSubmatch(l); m != nil {
			if strings.HasPrefix(m[1], prefix) {
				lines = append(lines, l)
			}
		} else if strings.HasPrefix(l, prefix) {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestHostileAgentsBesideSoldiers runs 40 soldiers on 2 workers with and
// without 10 hostile agents beside them: the soldiers' traces are the
// same byte for byte, and every failure of a hostile agent is an error
// located at its file and line.
func TestHostileAgentsBesideSoldiers(t *testing.T) {
	args := []string{"run", "--ticks", "60", "--dt", "0.05", "--workers", "2", "--seed", "3",
		"--state", "enemy_visible=true", "--state", "enemy_health=500"}
	for i := range 40 {
		args = append(args, fmt.Sprintf("S%d=%s", i+1, soldier))
	}
	alone, errOut, code := runMain(args...)
	require.Equal(t, 0, code, errOut)
	beside, errOut, code := runMain(append(args, writeHostiles(t, t.TempDir())...)...)
	assert.Equal(t, 1, code, "the hostile agents' scripts raise errors: the run fails")
	assert.Regexp(t, `moonmind run: the scripts raised [0-9]+ errors while the agents ran`, errOut)

	soldiers := prefixLines(alone, "S")
	require.NotEmpty(t, soldiers)
	assert.Equal(t, soldiers, prefixLines(beside, "S"), "the soldiers' traces are the same with the hostile agents beside them")

	hostile := prefixLines(beside, "H_")
	located := regexp.MustCompile(`reason=".*h_[a-z]+\.lua:[0-9]+: `)
	failed := map[string]bool{}
	for _, l := range hostile {
		if m := recordLineRE.FindStringSubmatch(l); m != nil && m[2] == "fail" {
			failed[m[1]] = true
			assert.Regexp(t, located, l, "a located error")
		}
	}
	for n := range hostileBodies {
		assert.True(t, failed["H_"+n], "H_%s failed", n)
	}
	assert.Contains(t, beside, `H_forge x\ntick    1  t=  0.000s  S1           fail        action=attack reason="forged"`,
		"the forged record stays on the forger's line")
}
