package luabind

import (
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// stackSlots returns th's value stack as gopher-lua holds it, every slot,
// past the top too.
func stackSlots(th *lua.LState) []lua.LValue {
	slots, _ := luavm.Stack(th)
	return slots
}

// TestBodyCoroutineReuse: a body that returned leaves its coroutine to
// the next body start of the runtime, and that body, of another agent,
// finds nothing of the first: its stack is empty, its arguments and
// uninitialised locals are nil, its npc is its own, the coroutine is its
// agent's, and an error it raises names its own line. A coroutine that
// Lua code got hold of (coroutine.running), or whose body was
// interrupted, is never reused.
func TestBodyCoroutineReuse(t *testing.T) {
	require.True(t, luavm.OK())
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "reuse.lua"))
	require.NoError(t, err)
	start := func(a *engine.Agent, name string) *luaTask {
		act := d.Action(name)
		require.NotNil(t, act, name)
		task, err := act.Body.Start(a, act)
		require.NoError(t, err)
		return task.(*luaTask)
	}
	step := func(task *luaTask, dt float64, want engine.Status) {
		t.Helper()
		st, err := task.Resume(dt)
		require.NoError(t, err)
		require.Equal(t, want, st)
	}
	alice, bob := engine.NewAgent("alice", d), engine.NewAgent("bob", d)

	leave := start(alice, "leave")
	step(leave, 0, engine.Running)
	th := leave.th
	step(leave, 0.1, engine.Succeeded)
	require.Equal(t, []*lua.LState{th}, rt.threads.idle, "the returned body's coroutine is kept")
	for i, v := range stackSlots(th) {
		require.Nil(t, v, "stack slot %d", i)
	}
	_, owned := ownerOf(th)
	assert.True(t, owned)
	assert.Nil(t, threadCtx(th).owner, "an idle coroutine belongs to nobody")

	look := start(bob, "look")
	assert.Same(t, th, look.th, "the next start takes the kept coroutine")
	assert.Empty(t, rt.threads.idle)
	owner, _ := ownerOf(look.th)
	assert.Same(t, bob, owner)
	step(look, 0, engine.Running)
	report, _ := bob.Get("report").AsString()
	assert.Equal(t, "bob args=0 locals=0 status=suspended count=16 peek=left by alice", report)
	aliceReport, _ := alice.Get("report").AsString()
	assert.Equal(t, "", aliceReport)
	st, err := look.Resume(0.1)
	assert.Equal(t, engine.Failed, st)
	require.Error(t, err)
	assert.Equal(t, filepath.Join("testdata", "reuse.lua")+":42: an error value that is a table, not a message (raise errors with a string)", err.Error())
	assert.Empty(t, rt.threads.idle, "a failed body's coroutine is not kept")

	// A coroutine that a script holds stays dead once its body ends.
	keep := start(alice, "keep")
	step(keep, 0, engine.Running)
	kept := keep.th
	step(keep, 0.1, engine.Succeeded)
	assert.Empty(t, rt.threads.idle, "a coroutine that coroutine.running gave out is not kept")
	check := start(alice, "check")
	assert.NotSame(t, kept, check.th)
	step(check, 0, engine.Succeeded)
	report, _ = alice.Get("report").AsString()
	assert.Equal(t, "kept=dead same=false resume=false can not resume a dead thread", report)
	assert.Empty(t, rt.threads.idle, "check got hold of its own coroutine too")

	// An interrupted body is stopped in the middle: its coroutine is not kept.
	leave = start(bob, "leave")
	assert.Empty(t, rt.threads.idle)
	step(leave, 0, engine.Running)
	leave.Interrupt()
	assert.Empty(t, rt.threads.idle)
}
