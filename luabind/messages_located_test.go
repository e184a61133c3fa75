package luabind

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestMessagesAreLocated: a condition that returns a number, a recursion
// pcall catches and a wait inside a for-in iterator each name the
// script's file and line.
func TestMessagesAreLocated(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	path := filepath.Join("testdata", "located_messages.lua")
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	got := map[record.EventKind]string{}
	w.OnEvent = func(e record.Event) {
		if _, ok := got[e.Kind]; !ok {
			got[e.Kind] = e.Reason
		}
	}
	w.Add(engine.NewAgent("loc", d))
	w.Tick(0.1)
	assert.Equal(t, path+`:6: condition "ready" returned a number, not a boolean (return true or false)`, got[record.EventConditionFailed])
	assert.Equal(t, "loc "+path+":14: stack overflow: more than 200 nested Lua calls (a recursion that never ends?)", got[record.EventPrint])
	assert.Equal(t, path+":17: cannot wait or yield inside a metamethod or a for-in iterator (__index, __newindex, __lt, __call, ..., f in for k in f): "+
		"gopher-lua runs it in a Go call it cannot suspend", got[record.EventFail])
}

func TestABodyReturningFalseIsLocated(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	path := filepath.Join("testdata", "located_false.lua")
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var fail string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fail = e.Reason
		}
	}
	w.Add(engine.NewAgent("q", d))
	w.Tick(0.1)
	assert.Equal(t, path+":7: the body returned false", fail, "the body's first line: the return has no line once it ended")
}
