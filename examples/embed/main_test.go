package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGameLoopRunsBothRoles(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, ".", 6))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Greater(t, len(lines), 10)

	// The Go role plans its first goal and runs its multi-tick harvest.
	assert.Equal(t, []string{
		"  farmer plans harvest, harvest, sell, sell for stocked",
		"  farmer finished harvest",
		"  farmer finished harvest",
		"  farmer finished sell",
		"  farmer finished sell",
	}, lines[:5])
	// The Lua role buys through a host method with results, speaks
	// through another, and travels with a wait.
	text := out.String()
	assert.Contains(t, text, "  trader finished buy\n")
	assert.Contains(t, text, "  trader says: \"off to town with 2 sacks\"\n")
	assert.Equal(t, 6, strings.Count(text, "  trader finished travel\n"))
	assert.NotContains(t, text, "failed")
	// One status line per second of game time, the last one at the end.
	assert.Equal(t, 6, strings.Count(text, "\nsecond "))
	assert.Equal(t, "second 6: stall 1, sold 14, trader has 18 coins", lines[len(lines)-1])
}

func TestBrokenScriptIsAnError(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "trader.lua"), []byte(`return { name = "Trader", goals = { { name = "g", condition = "coins >" } } }`), 0o644))
	var out bytes.Buffer
	err := run(&out, dir, 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "trader.lua:1:")
	assert.Empty(t, out.String(), "nothing runs with a broken role")
}
