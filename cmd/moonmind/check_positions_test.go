package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckAndLoadDomainPlaceAnUndeclaredReadAlike: a variable nothing
// provides, read by a goal's condition or an action's pre, is placed by LoadDomain (what moonmind run reports) and by moonmind
// check at the same file:line:col, the start of the text that reads it.
func TestCheckAndLoadDomainPlaceAnUndeclaredReadAlike(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dog.lua")
	require.NoError(t, os.WriteFile(file, []byte(`return {
  name = "Dog",
  state = { hunger = 10, energy = 3 },
  goals = { { name = "fed", condition = "hungr < 30" } },
  actions = {
    { name = "eat", pre = "energy > 1 && awake", effects = "hunger = 0", fulfills = { "fed" } },
  },
}
`), 0o644))

	rt := luabind.NewRuntime(luabind.Options{})
	_, err := rt.LoadDomain(file)
	rt.Close()
	var ce *engine.CompileError
	require.True(t, errors.As(err, &ce), "LoadDomain fails with a CompileError: %v", err)
	var loaded []string
	for _, p := range ce.Problems {
		loaded = append(loaded, fmt.Sprintf("%d:%d", p.Pos.Line, p.Pos.Col))
	}
	assert.Equal(t, []string{"4:42", "6:28"}, loaded, "the condition's and the pre's text")

	var out, errOut bytes.Buffer
	assert.Equal(t, 1, checkCmd([]string{file, "--json"}, &out, &errOut), errOut.String())
	var found []findingJSON
	require.NoError(t, json.Unmarshal(out.Bytes(), &found), out.String())
	var checked []string
	for _, f := range found {
		assert.Equal(t, file, f.File)
		checked = append(checked, fmt.Sprintf("%d:%d", f.Line, f.Col))
	}
	assert.Equal(t, loaded, checked)
}

// TestCheckReportsABodyTypoBesideAGoalTypo: a role whose goal reads a
// misspelt variable does not compile, and check says so; the misspelt
// variables its action body and its sensor write are reported too, each
// at its own file:line:col, not hidden behind the first.
func TestCheckReportsABodyTypoBesideAGoalTypo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "farmer.lua")
	require.NoError(t, os.WriteFile(file, []byte(`return {
  name = "Farmer",
  state = { hunger = 5, energy = 3 },
  sensors = {
    { name = "tired", every = 1, run = function(npc, dt) npc.state.energi = 1 end },
  },
  goals = {
    { name = "fed", condition = "hungr < 1" },
  },
  actions = {
    { name = "eat", effects = "hunger = 0",
      run = function(npc)
        npc.state.enrgy = 0
      end },
  },
}
`), 0o644))
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, checkCmd([]string{file}, &out, &errOut), errOut.String())
	assert.Equal(t, file+`:8:34: error: goal "fed" condition reads "hungr", which no state variable, effect or named condition provides (did you mean "hunger"?)
`+file+`:13:19: error: action "eat" writes npc.state.enrgy, which the role's state does not declare (did you mean "energy"?)
`+file+`:5:68: error: sensor "tired" writes npc.state.energi, which the role's state does not declare (did you mean "energy"?)
`, out.String())

	// A role that does not load at all has only its load error.
	broken := filepath.Join(t.TempDir(), "broken.lua")
	require.NoError(t, os.WriteFile(broken, []byte("return { name = \"B\"\n  state = {} }\n"), 0o644))
	out.Reset()
	assert.Equal(t, 1, checkCmd([]string{broken}, &out, &errOut))
	assert.Regexp(t, `^`+regexp.QuoteMeta(broken)+`:1:20: error: syntax error [^\n]*\n$`, out.String(), "one finding: the syntax error")
}
