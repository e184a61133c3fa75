package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGraphGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"soldier.dot", []string{soldier}},
		{"squad.dot", []string{filepath.Join("..", "..", "scripts", "squad.lua")}},
		{"barista.dot", []string{baristaFile}},
		{"barista.mermaid", []string{baristaFile, "--format", "mermaid"}},
		{"walker.mermaid", []string{walker, "--format", "mermaid"}},
		{"walker-sheltered.dot", []string{walker, "--goal", "sheltered"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"graph"}, tc.args...)...)
			require.Equal(t, 0, code, errOut)
			checkGolden(t, filepath.Join("graph", tc.name+".golden"), out)
		})
	}
}

func TestGraphShowsWhatReadsAndWrites(t *testing.T) {
	out, errOut, code := runMain("graph", soldier)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `digraph "Soldier" {`)
	assert.Contains(t, out, `"act:reload" -> "goal:armed" [style=bold, label="fulfills"];`)
	assert.Contains(t, out, `"var:magazines" -> "act:reload" [style=dashed, label="pre"];`)
	assert.Contains(t, out, `"act:fetchMagazine" -> "var:magazines";`)
	assert.Contains(t, out, `"var:ammo" -> "goal:armed";`)
	assert.Contains(t, out, `"var:health" -> "act:attack" [style=dotted, label="healthy"];`, "a consideration's input")
	assert.Contains(t, out, `"act:attack" -> "var:ammo" [style=dotted, color="#777777", label="body"];`, "the body spends ammo, no effect says so")

	out, errOut, code = runMain("graph", walker)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"sensor:sky" -> "var:weather";`, "what the sensor writes, read from its source")
	assert.Contains(t, out, `"sensor:sky" -> "var:noise";`)

	out, errOut, code = runMain("graph", pingFile)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `[color="#3a7d2c", label="on belief_added"]`, "a belief triggers a plan")

	// Every node without an edge says why.
	for _, f := range []string{soldier, walker, pingFile, pongFile, baristaFile, filepath.Join("..", "..", "scripts", "squad.lua")} {
		out, errOut, code = runMain("graph", f)
		require.Equal(t, 0, code, errOut)
		linked := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if from, to, ok := strings.Cut(strings.TrimSpace(line), " -> "); ok {
				linked[from] = true
				linked[strings.Fields(strings.TrimSuffix(to, ";"))[0]] = true
			}
		}
		for _, line := range strings.Split(out, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, `"`) || strings.Contains(line, " -> ") {
				continue
			}
			id := strings.Fields(line)[0]
			if !linked[id] {
				assert.Contains(t, line, `(unconnected: `, "%s: %s has no edge and no note", f, id)
			}
		}
	}
}

func TestGraphBadInput(t *testing.T) {
	bad := filepath.Join("..", "..", "luabind", "testdata", "syntax_error.lua")
	_, errOut, code := runMain("graph", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, bad+":4:20:")

	_, errOut, code = runMain("graph", soldier, "--format", "mermaidd")
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind graph: --format mermaidd: expected dot or mermaid (did you mean \"mermaid\"?)\n", errOut)

	_, errOut, code = runMain("graph", soldier, "--goal", "armd")
	assert.Equal(t, 2, code)
	assert.Equal(t, "moonmind graph: --goal armd: the role has no such goal (did you mean \"armed\"?)\n", errOut)
}

// TestGraphSensorReads: a variable only a sensor reads is connected to
// the sensor by a dotted "reads" edge, not shown as unconnected.
func TestGraphSensorReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sky.lua")
	require.NoError(t, os.WriteFile(path, []byte(`return {
  name = "Sky",
  state = { weather = "sun", mood = 1 },
  sensors = {
    { name = "sky", every = 1, run = function(npc)
        if npc.state.weather == "rain" then npc.state.mood = 0 end
      end },
  },
}
`), 0o644))
	out, errOut, code := runMain("graph", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `  "var:weather" [shape=note, label="weather = \"sun\""];`+"\n")
	assert.Contains(t, out, `  "var:weather" -> "sensor:sky" [style=dotted, label="reads"];`+"\n")
	assert.Contains(t, out, `  "sensor:sky" -> "var:mood";`+"\n")
}
