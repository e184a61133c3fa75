package engine

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestAgentHotFieldsComeFirst: on a 64-bit machine the fields a tick
// of a waiting body reads lie in the first 152 bytes of an Agent, and its
// State and post right after them, so such a tick of an agent with n
// state variables (up to 8) reads ⌈(5+n)/2⌉ lines of its struct (2.5
// lines of fields after the allocator's 8-byte header, and a line holds
// four 16-byte Values): 6 for the shipped soldier's 7, where it read 8
// with the hot fields in 248 bytes, 11 with 32-byte Values and 17 before
// the hot fields came first.
func TestAgentHotFieldsComeFirst(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layout is measured for 64-bit machines")
	}
	assert.Equal(t, unsafe.Offsetof(Agent{}.stateBuf), hotTo, "stateBuf follows the hot fields")
	assert.Equal(t, unsafe.Sizeof(expr.Value{}), valueSize, "a Value is a pointer and a word")
	assert.Equal(t, unsafe.Offsetof(Agent{}.utility)+unsafe.Sizeof(&UtilityPlanner{}), utilityTo, "utilityTo ends the utility field")
	for name, off := range map[string]uintptr{
		"Domain": unsafe.Offsetof(Agent{}.Domain), "State": unsafe.Offsetof(Agent{}.State),
		"StuckAfter": unsafe.Offsetof(Agent{}.StuckAfter), "tick": unsafe.Offsetof(Agent{}.tick),
		"clock": unsafe.Offsetof(Agent{}.clock), "task": unsafe.Offsetof(Agent{}.task),
		"postN": unsafe.Offsetof(Agent{}.postN), "marks": unsafe.Offsetof(Agent{}.marks),
		"world": unsafe.Offsetof(Agent{}.world), "ready": unsafe.Offsetof(Agent{}.ready),
		"lastProg": unsafe.Offsetof(Agent{}.lastProg), "rethinkAt": unsafe.Offsetof(Agent{}.rethinkAt),
		"sinceRescore": unsafe.Offsetof(Agent{}.sinceRescore), "asleep": unsafe.Offsetof(Agent{}.asleep),
	} {
		assert.Less(t, off, hotTo, "%s is among the hot fields", name)
	}

	d, err := Compile(skipRole())
	require.NoError(t, err)
	require.Len(t, d.Initial, 8)
	require.Equal(t, uintptr(16), unsafe.Sizeof(expr.Value{}), "a Value is a pointer and a word")
	lines := map[uintptr]bool{}
	for range 8 {
		a := NewAgent("s", d)
		require.True(t, ownStates(a), "the soldier's states lie in the agent")
		require.Equal(t, &a.stateBuf[len(a.State)], &a.postState()[0], "post is found in stateBuf")
		require.Equal(t, a.post, a.postState(), "postState is post")
		p := uintptr(unsafe.Pointer(a))
		clear(lines)
		for off := uintptr(0); off < hotTo+uintptr(2*len(a.State))*unsafe.Sizeof(expr.Value{}); off++ {
			lines[(p+off)/64] = true
		}
		assert.Len(t, lines, (5+len(a.State)+1)/2, "the lines of the hot fields and the states of an agent at %#x", p)
	}
}
