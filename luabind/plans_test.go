package luabind

import (
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// prints returns the print lines of the events, in order.
func (wd *world) prints() []string {
	var out []string
	for _, e := range wd.events {
		if e.Kind == engine.EventPrint {
			out = append(out, e.Reason)
		}
	}
	return out
}

// kinds returns the events of one agent as "kind detail" lines, for
// checking a sequence.
func (wd *world) trace(agent string) []string {
	var out []string
	for _, e := range wd.events {
		if e.Agent == agent {
			out = append(out, e.String())
		}
	}
	return out
}

func (wd *world) count(agent string, kind engine.EventKind) int {
	n := 0
	for _, e := range wd.events {
		if e.Agent == agent && e.Kind == kind {
			n++
		}
	}
	return n
}

func TestBaristaRecoversWithTheFailurePlan(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Barista"}, []string{"bdi/barista.lua"})
	wd.run(5, 0.1)
	a := wd.agents["Barista"]
	assert.Equal(t, []string{
		"Barista I could not prepare the espresso buying beans and trying again",
		"Barista served cup of espresso",
	}, wd.prints())
	assert.Equal(t, engine.StringValue("cup of espresso"), a.Get("served"))
	assert.Equal(t, engine.BoolValue(true), a.Get("beans"))
	// The first prepare failed for want of an applicable plan, and the
	// failure plan's result completed it.
	nop := wd.first("Barista", engine.EventNoPlan)
	require.NotNil(t, nop)
	assert.Equal(t, `{"prepare", "espresso"}`, nop.Goal)
	assert.Contains(t, nop.Reason, "no applicable plan (1 relevant, every guard refused)")
	fail := wd.first("Barista", engine.EventGoalFailed)
	require.NotNil(t, fail)
	assert.Equal(t, `{"prepare", "espresso"}`, fail.Goal)
	var removed []string
	for _, e := range wd.events {
		if e.Kind == engine.EventGoalRemoved {
			removed = append(removed, e.Goal+" -> "+e.Value)
		}
	}
	assert.Equal(t, []string{
		`{"prepare", "espresso"} -> "cup of espresso"`, // the retry, by brew
		`{"prepare", "espresso"} -> "cup of espresso"`, // the first, by the failure plan
		`serve -> "cup of espresso"`,
	}, removed)
}

func TestCountingGoalReachesItsEndInOneTick(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Counter"}, []string{"bdi/counting.lua"})
	wd.run(1, 0.1)
	assert.Equal(t, []string{"Counter Counting... 0", "Counter Counting... 1", "Counter Counting... 2",
		"Counter Counting... 3", "Counter Counting... 4", "Counter done at 5"}, wd.prints())
	assert.Equal(t, engine.NumberValue(5), wd.agents["Counter"].Get("reached"))
	assert.Equal(t, 6, wd.count("Counter", engine.EventIntentionDone))
	assert.Empty(t, wd.agents["Counter"].Recorder.Count(engine.EventIntentionFailed))
}

func TestPingPongThroughTellForSixRounds(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"Ping", "Pong"}, []string{"bdi/ping.lua", "bdi/pong.lua"})
	wd.run(20, 0.1)
	var pongs []string
	for _, p := range wd.prints() {
		if strings.HasPrefix(p, "Pong ") {
			pongs = append(pongs, p)
		}
	}
	assert.Equal(t, []string{"Pong pong 1", "Pong pong 3", "Pong pong 5", "Pong pong 7", "Pong pong 9", "Pong pong 11"}, pongs)
	assert.Equal(t, "Ping game over at 12", wd.prints()[len(wd.prints())-1])
	// A told belief arrives at the start of the receiver's next tick.
	var ticks []int
	for _, e := range wd.events {
		if e.Kind == engine.EventBeliefAdded && e.Belief == "ball" {
			ticks = append(ticks, e.Tick)
			assert.NotEmpty(t, e.Peer, "a told belief names its sender")
		}
	}
	assert.Equal(t, []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, ticks)
}
