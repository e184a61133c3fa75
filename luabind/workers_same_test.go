package luabind

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// askerAnswers are the recorded model answers of the askers a0 and a1:
// one plan whose step has twelve arguments, which a Go map holds in no
// fixed order.
func askerAnswers() []record.Event {
	const plan = `{"goal": "pick a route", "reasoning": "r", "steps": [{"index": 0, "action": "go", "description": "",
		"arguments": {"l": 12, "b": 2, "k": 11, "a": 1, "j": 10, "c": 3, "i": 9, "d": 4, "h": 8, "e": 5, "g": 7, "f": 6}}]}`
	var evs []record.Event
	for _, name := range []string{"a0", "a1"} {
		evs = append(evs,
			record.Event{Tick: 1, Agent: name, Kind: record.EventLLMRequest},
			record.Event{Tick: 2, Agent: name, Kind: record.EventLLMAnswer, Reason: plan})
	}
	return evs
}

// workersTrace runs the agents names (a name starting with "a" carries
// workers_asker.lua, any other workers_dice.lua) on workers goroutines,
// agent i on worker i mod workers, one Runtime each, for ticks ticks, and
// returns every record as the text trace writes it.
func workersTrace(t *testing.T, names []string, workers, ticks int) []string {
	t.Helper()
	w := engine.NewWorld(7)
	w.Workers = workers
	var lines []string
	w.OnEvent = func(e record.Event) { lines = append(lines, e.String()) }
	type loaded struct{ dice, asker *engine.Domain }
	rts := make([]loaded, workers)
	for k := range rts {
		rt := NewRuntime(Options{InstructionBudget: testBudget})
		t.Cleanup(rt.Close)
		l, err := rt.EnableLLM(LLMOptions{Replay: askerAnswers()})
		require.NoError(t, err)
		t.Cleanup(l.Close)
		rts[k].dice, err = rt.LoadDomain(filepath.Join("testdata", "workers_dice.lua"))
		require.NoError(t, err)
		rts[k].asker, err = rt.LoadDomain(filepath.Join("testdata", "workers_asker.lua"))
		require.NoError(t, err)
	}
	for i, name := range names {
		d := rts[i%workers].dice
		if strings.HasPrefix(name, "a") {
			d = rts[i%workers].asker
		}
		w.Add(engine.NewAgent(name, d))
		w.Pin(i, i%workers)
	}
	for range ticks {
		w.Tick(0.1)
	}
	return lines
}

// only keeps the lines of the agents names.
func only(lines []string, names ...string) []string {
	var out []string
	for _, l := range lines {
		for _, n := range names {
			if strings.HasPrefix(l, n+" ") || strings.Contains(l, "  "+n+" ") {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

func TestTracesAreTheSameWithOneTwoAndFourWorkers(t *testing.T) {
	names := []string{"d0", "a0", "d1", "d2", "d3", "a1", "d4", "d5"}
	one := workersTrace(t, names, 1, 30)
	require.NotEmpty(t, one)
	assert.Equal(t, one, workersTrace(t, names, 2, 30), "two workers")
	assert.Equal(t, one, workersTrace(t, names, 4, 30), "four workers")

	text := strings.Join(one, "\n")
	assert.Contains(t, text, "a0 args a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 table: #1",
		"a step's arguments come in key order, and tostring numbers per agent")
	assert.Contains(t, text, "a1 args a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 table: #1")
	assert.Contains(t, text, "\nd0 name userdata: #1 function: #2 table: #3\n", "each agent's first value is #1")
	assert.Contains(t, text, "\nd1 roll table: #1 table: #2 ")
}

func TestAnotherAgentDoesNotChangeAnAgentsDraws(t *testing.T) {
	alone := workersTrace(t, []string{"d0", "d1"}, 1, 30)
	beside := workersTrace(t, []string{"d0", "d1", "d2"}, 1, 30)
	require.NotEmpty(t, only(alone, "d0", "d1"))
	assert.Equal(t, only(alone, "d0", "d1"), only(beside, "d0", "d1"),
		"d2 draws from its own source in its considerations and bodies")
	assert.NotEqual(t, only(beside, "d0"), only(beside, "d1"), "two agents draw different numbers")
}
