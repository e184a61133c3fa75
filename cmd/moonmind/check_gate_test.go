package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gateRole(name string) string { return filepath.Join("testdata", "gate", name) }

// TestCheckPassesTheNeedsPattern: a sensor that raises a need and an
// action that meets it (by an effect on the need, or by fulfills) is
// sound, as runs of it show.
func TestCheckPassesTheNeedsPattern(t *testing.T) {
	for _, f := range []string{"needs.lua", "needs_fulfills.lua"} {
		out, errOut, code := runMain("check", gateRole(f))
		assert.Equal(t, 0, code, out+errOut)
		assert.Equal(t, gateRole(f)+": ok: role Farmer, 3 state variables, 1 goals, 3 actions, 1 sensors, 0 plans, decide goap\n", out)
	}
	for _, f := range []string{"needs.lua", "needs_fulfills.lua"} {
		out, _, code := runMain("plan", gateRole(f))
		require.Equal(t, 0, code, f)
		assert.Contains(t, out, "plan: farm, cook, eat  [cost 4]", f)
	}
}

// TestCheckFindsTyposInBodies: a body that reads or writes a state
// variable the role does not declare is an error at its line and column,
// with a did-you-mean when a declared name is close.
func TestCheckFindsTyposInBodies(t *testing.T) {
	f := gateRole("typos.lua")
	out, _, code := runMain("check", f)
	assert.Equal(t, 1, code)
	assert.Equal(t,
		f+`:15:86: error: action "farm" reads npc.state.enrgy, which the role's state does not declare and nothing writes: it is always nil there (declare it in state with its starting value)`+"\n"+
			f+`:19:37: error: action "eat" writes npc.state.hungr, which the role's state does not declare (did you mean "hunger"?)`+"\n", out)

	out, _, code = runMain("check", "--json", f)
	assert.Equal(t, 1, code)
	var got []findingJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 2)
	assert.Equal(t, "undeclared:enrgy", got[0].ID)
	assert.Equal(t, "undeclared:hungr", got[1].ID)
}

// TestCheckIgnore: check_ignore silences a finding by name; --verbose
// shows it with its reason and names every finding; a name that silences
// nothing is a warning at its place.
func TestCheckIgnore(t *testing.T) {
	f := gateRole("ignore.lua")
	stale := f + `:5:110: warning: check_ignore names "unused-action:ghost", which no finding of this role has` + "\n"
	out, _, code := runMain("check", f)
	assert.Equal(t, 1, code, "the stale name still fails the check")
	assert.Equal(t, stale, out)

	out, _, code = runMain("check", "--verbose", f)
	assert.Equal(t, 1, code)
	assert.Equal(t, f+":17:7: ignored [sensor-write:in_cover]: cover is re-checked every half second; a late hide is fine\n"+stale, out)

	out, _, code = runMain("check", "--verbose", filepath.Join("testdata", "faulty", "sensor_promise.lua"))
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "(let the body or the sensor own in_cover, not both) [sensor-write:in_cover]\n", "without check_ignore the finding stands, named")
}
