package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMisusePanicsSayWhat: the Go API's programmer errors panic with a
// message that names the call, not a bare nil dereference or index out of
// range deep in the engine (a nil *Domain is what a game gets when it
// ignores Compile's or LoadDomain's error).
func TestMisusePanicsSayWhat(t *testing.T) {
	w := NewWorld(1)
	assert.PanicsWithValue(t, "engine: World.Add: nil agent", func() { w.Add(nil) })
	assert.PanicsWithValue(t, `engine: NewAgent: agent "guard" has no domain (a nil *Domain: did Compile or LoadDomain fail?)`,
		func() { NewAgent("guard", nil) })
	assert.PanicsWithValue(t, "engine: World.Pin: no agent 5 (the world has 0 agents)", func() { w.Pin(5, 1) })
	assert.PanicsWithValue(t, "engine: World.Pin: no agent -1 (the world has 0 agents)", func() { w.Pin(-1, 0) })
	w.Add(NewAgent("a", counterDomain(t)))
	assert.NotPanics(t, func() { w.Pin(0, 1) })
	assert.PanicsWithValue(t, "engine: World.Pin: no agent 1 (the world has 1 agents)", func() { w.Pin(1, 0) }, "the first index past the agents")
}
