package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGraphOfTheSoldier(t *testing.T) {
	out, errOut, code := runMain("graph", soldier)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `digraph "Soldier" {`)
	assert.Contains(t, out, `"act:reload" -> "goal:armed" [style=bold, label="fulfills"];`)
	assert.Contains(t, out, `"var:magazines" -> "act:reload" [style=dashed, label="pre"];`)
	assert.Contains(t, out, `"act:fetchMagazine" -> "var:magazines";`)
	assert.Contains(t, out, `"var:ammo" -> "goal:armed";`)

	bad := filepath.Join("..", "..", "luabind", "testdata", "syntax_error.lua")
	_, errOut, code = runMain("graph", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, bad+":4:20:")
}
