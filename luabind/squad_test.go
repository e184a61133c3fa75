package luabind

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// squadTrace runs a0, spot, a2, a3 (squad blue) and loner on workers
// goroutines, agent i on worker i mod workers, one Runtime each, for
// ticks ticks; the spotter writes the enemy to the squad in its first
// tick. It returns the print and group-write records.
func squadTrace(t *testing.T, workers, ticks int) ([]string, *engine.World) {
	t.Helper()
	w := engine.NewWorld(7)
	w.Workers = workers
	var lines []string
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventPrint:
			lines = append(lines, fmt.Sprintf("%d %s", e.Tick, e.Reason))
		case record.EventGroupWrite:
			lines = append(lines, fmt.Sprintf("%d %s wrote %s=%s to %s", e.Tick, e.Agent, e.Belief, e.Value, e.Peer))
		}
	}
	domains := make([]*engine.Domain, workers)
	for k := range domains {
		rt := NewRuntime(Options{InstructionBudget: testBudget})
		t.Cleanup(rt.Close)
		var err error
		domains[k], err = rt.LoadDomain(filepath.Join("testdata", "squad_board.lua"))
		require.NoError(t, err)
	}
	g, err := w.NewGroup("blue", engine.GroupSpecOf(domains[0], "squad"))
	require.NoError(t, err)
	assert.Equal(t, []string{"enemy_seen", "enemy_x"}, g.Vars())
	for i, name := range []string{"a0", "spot", "a2", "a3", "loner"} {
		a := engine.NewAgent(name, domains[i%workers])
		a.Set("spotter", expr.BoolValue(name == "spot"))
		w.Add(a)
		w.Pin(i, i%workers)
		if name != "loner" {
			require.NoError(t, g.Join(a))
		}
	}
	for range ticks {
		w.Tick(0.1)
	}
	return lines, w
}

func TestSquadBoardFromLua(t *testing.T) {
	one, w := squadTrace(t, 1, 3)
	four, _ := squadTrace(t, 4, 3)
	assert.Equal(t, one, four, "the same trace with 1 and 4 workers")
	assert.Equal(t, []string{
		// Tick 1: the spotter writes; a2 and a3, after it, still read 0.
		"1 a0 reads enemy_x=0",
		"1 spot reads enemy_x=0",
		"1 a2 reads enemy_x=0",
		"1 a3 reads enemy_x=0",
		"1 loner reads enemy_x=0",
		"1 spot wrote squad.enemy_seen=true to blue",
		"1 spot wrote squad.enemy_x=7 to blue",
		// Tick 2: every member reads it, and its reactive plan fires.
		"2 a0 alerted, enemy at 7",
		"2 a0 reads enemy_x=7",
		"2 spot alerted, enemy at 7",
		"2 spot reads enemy_x=7",
		"2 a2 alerted, enemy at 7",
		"2 a2 reads enemy_x=7",
		"2 a3 alerted, enemy at 7",
		"2 a3 reads enemy_x=7",
		"2 loner reads enemy_x=0",
		"3 a0 reads enemy_x=7",
		"3 spot reads enemy_x=7",
		"3 a2 reads enemy_x=7",
		"3 a3 reads enemy_x=7",
		"3 loner reads enemy_x=0",
	}, one)

	// A snapshot keeps the squad and its board.
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(&buf, engine.RestoreOptions{Domains: []*engine.Domain{w.Agents[0].Domain}})
	require.NoError(t, err)
	require.NotNil(t, r.Group("blue"))
	assert.Equal(t, expr.NumberValue(7), r.Group("blue").Get("enemy_x"))
	assert.Len(t, r.Group("blue").Members(), 4)
}
