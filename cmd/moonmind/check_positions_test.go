package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
