package luabind

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestLeakedFastNPCIsRefused: a victim keeps its npc object (fast while
// its body runs), npc.state, npc.facts, methods taken from the fast table
// and closures over them in its role's shared table; another agent of the
// role uses each from its body. Every use that reads or changes the victim
// is refused with the npc's message, the victim's state is untouched, and
// the victim's own fast npc still answers it afterwards.
func TestLeakedFastNPCIsRefused(t *testing.T) {
	withFastAndSlowNPC(t, leakedNPCIsRefused)
}

func leakedNPCIsRefused(t *testing.T) {
	reports, fails, victim, _ := reportWorld(t, filepath.Join("testdata", "fastnpc"), "leak.lua", nil)
	assert.Empty(t, fails)
	file := filepath.Join("testdata", "fastnpc", "leak.lua") + ":"
	for i := range reports {
		reports[i] = strings.ReplaceAll(reports[i], file, "")
	}
	used := `npc "victim" used while agent "attacker" runs: an npc object belongs to its own agent`
	assert.Equal(t, []string{
		"attacker: npc.state: error 8: " + used,
		"attacker: npc.name: error 9: " + used,
		"attacker: npc.facts: error 10: " + used,
		"attacker: npc.wait: error 11: " + used,
		"attacker: state read: error 12: " + used,
		"attacker: state write: error 13: " + used,
		"attacker: facts kept: error 14: " + used,
		"attacker: chain name: error 15: " + used,
		"attacker: chain state: error 16: " + used,
		"attacker: chain of state: error 17: " + used,
		"attacker: closure: error 47: " + used,
		`attacker: wrap: error 59: coroutine.wrap: this coroutine belongs to agent "victim", not to agent "attacker" that runs now: an agent can resume only its own coroutines`,
		"attacker: host call: error 20: " + used,
		// A host method kept from the fast table is refused by hostStart,
		// inside the prelude; the message names the script's line.
		"attacker: kept method: error 21: " + used,
		// Refused at the call, not in the test function it would run: the
		// tail call leaves no frame of its line, so the pcall's line.
		"attacker: wait_until: error 59: " + used,
		"attacker: getmetatable: ok protected",
		"attacker: equal: ok false",
		"attacker: rawget: error 25: bad argument #1 to rawget (table expected, got userdata)",
		"attacker: next: error 26: bad argument #1 to next (table expected, got userdata)",
		"attacker: pairs: error 27: bad argument #1 to pairs (table expected, got userdata)",
		"attacker: tostring state: ok string",
		"attacker: kept Go method: error 29: " + used,
		"attacker: kept Go method, own npc: ok nil",
		"victim: count 8",
	}, reports)
	assert.Equal(t, expr.NumberValue(8), victim.Get("count"), "1 + #\"victim\" + 1, and no attack wrote 99")
	assert.Equal(t, expr.BoolValue(true), victim.Get("done"))
}
