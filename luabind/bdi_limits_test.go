package luabind

import (
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan that adds goals faster than they finish is stopped at
// bdi.DefaultMaxIntentions: the goals past it fail, and memory stays
// bounded instead of growing a hundredfold a tick.
func TestGoalBombIsBoundedByMaxIntentions(t *testing.T) {
	wd := scriptWorld(t, 1, "goal_bomb.lua")
	wd.run(3, 0.1)
	a := wd.agents["GoalBomb"]
	assert.LessOrEqual(t, len(bdi.Of(a).Intentions()), bdi.DefaultMaxIntentions)
	var refused int
	for _, e := range wd.events {
		if e.Kind == record.EventGoalFailed && strings.Contains(e.Reason, "more than 1000 intentions and queued goals at once") {
			refused++
		}
	}
	assert.Positive(t, refused, "goals past the bound fail with the reason")
}

// All of an agent's intentions share one instruction budget per tick: a
// chain of belief events that each work hard goes on in the next tick
// instead of running thousands of resumes' worth of work in one.
func TestIntentionsShareOneBudgetPerTick(t *testing.T) {
	wd := scriptWorld(t, 1, "wake_burn.lua")
	wd.run(1, 0.1)
	a := wd.agents["WakeBurn"]
	after1, _ := a.Get("x").AsNumber()
	// About testBudget / (the ~6,000 units of one resume) resumes fit.
	assert.Greater(t, after1, 2.0)
	assert.Less(t, after1, 60.0, "the chain stops when the tick's budget is spent")
	var deferred []string
	for _, e := range wd.events {
		if e.Kind == record.EventNoPlan && strings.Contains(e.Reason, "spent this tick's budget") {
			deferred = append(deferred, e.Reason)
		}
	}
	require.Len(t, deferred, 1, "one record per tick")
	assert.Equal(t, "intentions spent this tick's budget of 100000 work units; the rest waits for the next tick", deferred[0])
	wd.run(2, 0.1)
	after3, _ := a.Get("x").AsNumber()
	assert.Greater(t, after3, after1+2*(after1-2), "the chain goes on, a budget's worth each tick")
}

// npc:print names tables, userdata, threads and functions the way the
// sandbox's tostring does, never by heap address, so traces repeat.
func TestPrintShowsNoHeapAddress(t *testing.T) {
	wd := scriptWorld(t, 1, "print_refs.lua")
	wd.run(1, 0.1)
	assert.Equal(t, []string{"PrintRefs table: #1 userdata: #2 thread: #3 function: #4"}, wd.prints())
}

// An intention is held to the agent's memory limit like an action body
// (they share coTask): one that keeps what it builds across its waits
// fails with the limit and its file:line.
func TestIntentionsAreHeldToTheMemoryLimit(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget, MemoryLimit: 2 << 20})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Hoard"}, []string{"bdi/hoard.lua"})
	wd.run(80, 0.1)
	var failed []string
	for _, e := range wd.events {
		if e.Kind == record.EventIntentionFailed {
			failed = append(failed, e.Reason)
		}
	}
	require.Len(t, failed, 1)
	// The walk at the wait (line 12) catches it, or the heap watchdog
	// while the string is built (line 11) when a collection happens then;
	// the watchdog is not deterministic (see sandbox_memory.go).
	assert.Regexp(t, `testdata/bdi/hoard\.lua:1[12]: memory limit exceeded \(2 MiB\)`, failed[0])
}

// A plan that believes what triggers it, fifty times a resume, is held to
// bdi.DefaultMaxEvents waiting events and bdi.DefaultMaxIntentions
// intentions: each tick says once that it drops events and once that it
// starts no more plans, and the intentions stay within the bound.
func TestBeliefStormIsBounded(t *testing.T) {
	wd := scriptWorld(t, 1, "belief_storm.lua")
	wd.run(4, 0.1)
	a := wd.agents["BeliefStorm"]
	assert.LessOrEqual(t, len(bdi.Of(a).Intentions()), bdi.DefaultMaxIntentions)
	var dropped, refused []string
	for _, e := range wd.events {
		switch {
		case e.Kind == record.EventNoPlan && strings.Contains(e.Reason, "events waiting"):
			dropped = append(dropped, e.Reason)
		case e.Kind == record.EventNoPlan && strings.Contains(e.Reason, "intentions at once"):
			refused = append(refused, e.Reason)
			assert.Equal(t, "n", e.Belief)
		}
	}
	require.Len(t, dropped, 4, "one record per tick")
	assert.Equal(t, "more than 10000 events waiting; belief_added n and the later belief events of this tick are dropped (a plan that believes what triggers it?)", dropped[0])
	require.Len(t, refused, 4, "one record per tick")
	assert.Equal(t, `more than 1000 intentions at once; plan "flip" and the other plans of this tick's belief_added events do not start (a plan that believes what triggers it?)`, refused[0])
}
