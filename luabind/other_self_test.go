package luabind

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestNPCMethodsRefuseAnotherAgentsNPCAsSelf: npc.wait(other, 1) and
// every other npc method called with another agent's npc object as self
// (kept in a shared table) fail at the caller's line with the message
// that an npc object belongs to its own agent; npc:tell to another agent
// by name stays allowed (the victim's own tell is not what is refused).
func TestNPCMethodsRefuseAnotherAgentsNPCAsSelf(t *testing.T) {
	withFastAndSlowNPC(t, npcMethodsRefuseAnotherAgentsNPCAsSelf)
}

func npcMethodsRefuseAnotherAgentsNPCAsSelf(t *testing.T) {
	reports, fails, victim, _ := reportWorld(t, filepath.Join("testdata", "msg"), "other_self.lua", nil)
	f := filepath.Join("testdata", "msg", "other_self.lua") + ":"
	used := `npc "victim" used while agent "attacker" runs: an npc object belongs to its own agent`
	assert.Equal(t, []string{
		"attacker: wait: error " + f + "8: " + used,
		"attacker: wait zero: error " + f + "9: " + used,
		"attacker: wait, own method: error " + f + "10: " + used,
		"attacker: tell by name: ok told",
		"attacker: wait_until: error " + f + "12: " + used,
		"attacker: believe: error " + f + "13: " + used,
		"attacker: forget: error " + f + "14: " + used,
		"attacker: tell: error " + f + "15: " + used,
		"attacker: print: error " + f + "16: " + used,
		"attacker: also_achieve: error " + f + "17: " + used,
		"attacker: achieve: error " + f + "18: " + used,
		"attacker: wait_event: error " + f + "19: " + used,
		"attacker: host: error " + f + "20: " + used,
		"attacker: state: error " + f + "21: " + used,
	}, reports)
	assert.Equal(t, []string{"attacker: " + f + "45: " + used}, fails, "unprotected, the body fails")
	assert.Equal(t, expr.BoolValue(false), victim.Get("flag"), "nothing reached the victim through its npc")
	assert.Equal(t, expr.BoolValue(true), victim.Get("told"), "a tell by name did")
}
