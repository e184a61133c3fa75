package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScanFindsWhatAnEntryWrites(t *testing.T) {
	src := `local mm = require("moonmind")
local function helper(npc) npc.state.far = true end
return mm.role {
  name = "Scout",
  state = { seen = false, far = false, count = 0, mood = "calm" },
  sensors = {
    { name = "eyes", run = function(npc)
        if npc.state.count > 2 then
          npc.state.seen = true
        else
          npc.state["count"] = npc.state.count + 1
        end
        local f = function() npc:believe("mood", "alert") end
        f()
      end },
    {
      name = "ears",
      run = function(npc, dt) local k = "seen"; npc.state[k] = false end,
    },
  },
  conditions = { calm = function(npc) return npc.state.mood == "calm" and not npc.state.seen end },
  actions = {
    mm.action("peek", { run = function(npc) npc.state.far = false end }),
  },
  plans = {
    { name = "react", on = "belief_added", belief = "seen",
      body = function(npc) npc:achieve("hidden"); npc:forget("mood")
        npc:achieve_with_result({ "report", 1 }) end },
  },
}
`
	path := filepath.Join(t.TempDir(), "scout.lua")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	s, err := ScanFile(path)
	require.NoError(t, err)

	eyes, ok := s.Entry(7, "eyes")
	require.True(t, ok)
	assert.Equal(t, Touches{Writes: []string{"seen", "count", "mood"}, Reads: []string{"count"}, Lines: map[string]int{"count": 8, "seen": 9, "mood": 13}, First: 7, Last: 15}, eyes, "reads of npc.state.count are no writes; the helper outside is not counted")

	ears, ok := s.Entry(17, "ears")
	require.True(t, ok, "the name's line, inside a table that begins on the line before")
	assert.Equal(t, Touches{Dynamic: true, First: 16, Last: 18}, ears)

	react, ok := s.Entry(26, "react")
	require.True(t, ok)
	assert.Equal(t, Touches{Writes: []string{"mood"}, Achieves: []string{"hidden", "report"}, Lines: map[string]int{"mood": 27}, First: 26, Last: 28}, react)

	unnamed, ok := s.Entry(26, "")
	require.True(t, ok, "an unnamed entry, by the line of one of its fields")
	assert.Equal(t, react, unnamed)

	peek, ok := s.Entry(23, "peek")
	require.True(t, ok, "a helper call that takes the name first")
	assert.Equal(t, Touches{Writes: []string{"far"}, Lines: map[string]int{"far": 23}, First: 23, Last: 23}, peek)

	calm, ok := s.Entry(21, "calm")
	require.True(t, ok, "a keyed function, as conditions are written")
	assert.Equal(t, Touches{Reads: []string{"mood", "seen"}, Lines: map[string]int{"mood": 21, "seen": 21}, First: 21, Last: 21}, calm)

	_, ok = s.Entry(7, "ears")
	assert.False(t, ok, "no table named ears spans line 7")

	_, err = ScanFile(filepath.Join(t.TempDir(), "missing.lua"))
	assert.Error(t, err)
}
