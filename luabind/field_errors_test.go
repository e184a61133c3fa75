package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadErrors writes src to a role file, loads it and returns its file
// name and the load error's lines.
func loadErrors(t *testing.T, src string) (string, []string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "role.lua")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	rt := NewRuntime(Options{})
	t.Cleanup(rt.Close)
	_, err := rt.LoadDomain(file)
	require.Error(t, err)
	var ce *engine.CompileError
	require.ErrorAs(t, err, &ce)
	return file, strings.Split(ce.Error(), "\n")
}

// TestDecideTypoNamesItsField: a misspelt decide is reported at its field
// with a did-you-mean, like utility_mode; it was ":0:0: decide must be
// ...", with no file, line or column.
func TestDecideTypoNamesItsField(t *testing.T) {
	file, got := loadErrors(t, `return {
  name = "Dog",
  state = { x = 0 },
  decide = "utilty",
  actions = { { name = "a", effects = "x = 1" } },
}
`)
	assert.Equal(t, []string{
		file + `:4:3: role: decide must be "goap", "utility" or "hybrid", not "utilty" (did you mean "utility"?)`,
	}, got)
}

// TestConsiderationErrorAtItsOwnLine: two considerations with the same
// input are placed each at its own line; the second one's error was
// placed at the first one's.
func TestConsiderationErrorAtItsOwnLine(t *testing.T) {
	file, got := loadErrors(t, `return {
  name = "Dog",
  state = { energy = 0 },
  actions = {
    { name = "nap", effects = "energy = 10",
      considerations = {
        { input = "energy", curve = "linear" },
        { input = "energy", min = 5, max = 5, curve = "logistic" },
      } },
  },
}
`)
	assert.Equal(t, []string{
		file + `:8:11: action "nap" consideration "energy": min and max must differ (both are 5)`,
	}, got)
}

// TestUtilityTagsMustBeAList: tags = "care" is reported at its field; it
// was ignored, so the action had no tag and hasTag("care") scored it 0.
func TestUtilityTagsMustBeAList(t *testing.T) {
	file, got := loadErrors(t, `return {
  name = "Dog",
  decide = "utility",
  considerations = { 'hasTag("care")' },
  actions = {
    { name = "nap", utility = { tags = "care" } },
  },
}
`)
	assert.Equal(t, []string{
		file + `:6:33: action "nap" utility: tags must be a list of names, such as tags = { "combat" }, not string`,
	}, got)
}
