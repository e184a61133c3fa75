package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

	// The Go role plans for its goal and runs its multi-tick harvest, then
	// puts the grain on the stall.
	assert.Regexp(t, `^  farmer plans (harvest, )+(sell, )*sell for stocked$`, lines[0])
	assert.Equal(t, "  farmer finished harvest", lines[1])
	text := out.String()
	assert.Contains(t, text, "  farmer finished sell\n")
	// The Lua role buys through a host method with results, speaks
	// through another, and travels with a wait.
	assert.Contains(t, text, "  trader finished buy\n")
	assert.Contains(t, text, "  trader says: \"off to town with 2 sacks\"\n")
	assert.GreaterOrEqual(t, strings.Count(text, "  trader finished travel\n"), 4)
	assert.NotContains(t, text, "failed")
	// One status line per second of game time, the last one at the end:
	// the trader made money (it starts with 10 coins) from the farmer's
	// grain.
	assert.Equal(t, 6, strings.Count(text, "\nsecond "))
	m := regexp.MustCompile(`^second 6: stall \d+, sold (\d+), trader has (\d+) coins$`).FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, lines[len(lines)-1])
	sold, _ := strconv.Atoi(m[1])
	coins, _ := strconv.Atoi(m[2])
	assert.GreaterOrEqual(t, sold, 10)
	assert.Greater(t, coins, 10)
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
