package luabind

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWrapperErrorsNameTheScriptLine: an error raised inside the npc
// method wrapper luabind defines in Lua (a host method kept from another
// agent's npc, a bad argument to a host method or to npc:wait) names the
// script's file:line that called the method, with the fast npc and the
// slow one.
func TestWrapperErrorsNameTheScriptLine(t *testing.T) {
	withFastAndSlowNPC(t, wrapperErrorsNameTheScriptLine)
}

func wrapperErrorsNameTheScriptLine(t *testing.T) {
	reports, fails, _, _ := reportWorld(t, filepath.Join("testdata", "msg"), "wrapper.lua", map[string]HostFunc{
		"fail": func(*HostCall) (bool, error) { return true, errors.New("out of ammo") },
	})
	f := filepath.Join("testdata", "msg", "wrapper.lua") + ":"
	used := `npc "victim" used while agent "attacker" runs: an npc object belongs to its own agent`
	assert.Equal(t, []string{
		"attacker: kept method: error " + f + "8: " + used,
		// A tail call leaves no frame of its line: the nearest script
		// frame left is the pcall's.
		"attacker: kept method, tail call: error " + f + "35: " + used,
		"attacker: function argument: error " + f + "10: bad argument #1 to 'report' (a function cannot be stored in state (only nil, booleans, numbers and strings))",
		"attacker: state as self: error " + f + "11: bad argument #1 to 'report' (npc expected (call methods with a colon: npc:report(...)))",
		"attacker: host error: error " + f + "12: npc:fail: out of ammo",
		"attacker: wait argument: error " + f + "13: bad argument #1 to 'wait' (number expected, got string)",
		"attacker: wait_until argument: error " + f + "14: bad argument #1 to 'wait_until' (function expected, got number)",
		"attacker: dot call: error " + f + "15: npc:wait is a method: call it with a colon, npc:wait(...), not npc.wait(...)",
	}, reports)
	assert.Equal(t, []string{"attacker: " + f + "39: npc:fail: out of ammo"}, fails, "unprotected, the body fails")
}
