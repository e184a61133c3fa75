package luabind

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// lodSoldierHost is a small game for the shipped soldier: each soldier
// on a plane at its home (the origin), an ammo crate 120 px away, walking
// 100 px a second of the dt it is given.
func lodSoldierHost() map[string]HostFunc {
	pos := func(a *engine.Agent) *[2]float64 {
		if p, ok := a.Data.(*[2]float64); ok {
			return p
		}
		p := &[2]float64{}
		a.Data = p
		return p
	}
	return map[string]HostFunc{
		"position": func(c *HostCall) (bool, error) {
			p := pos(c.Agent)
			c.Results = append(c.Results[:0], expr.NumberValue(p[0]), expr.NumberValue(p[1]))
			return true, nil
		},
		"nearest": func(c *HostCall) (bool, error) {
			c.Results = append(c.Results[:0], expr.NumberValue(120), expr.NumberValue(0))
			return true, nil
		},
		"move_to": func(c *HostCall) (bool, error) {
			p := pos(c.Agent)
			tx, _ := c.Args[0].AsNumber()
			ty, _ := c.Args[1].AsNumber()
			dx, dy := tx-p[0], ty-p[1]
			d, step := math.Hypot(dx, dy), 100*c.DT
			if d <= step {
				p[0], p[1] = tx, ty
				return true, nil
			}
			p[0], p[1] = p[0]+dx/d*step, p[1]+dy/d*step
			return false, nil
		},
		"shoot": func(*HostCall) (bool, error) { return true, nil },
	}
}

// TestThrottledSoldiersEndAsTheFullRateOne: three shipped soldiers at 60,
// 10 and 2 thinks a second (levels 0, 1 and 2 of the world's level of
// detail) go through three supply runs (fetch a magazine from the crate,
// walk home, reload) over 24 s, the game emptying their magazines to 5
// rounds at 8 s and 16 s; they end in the same state, at home, having
// reloaded three times each. The far ones walk and wait in coarser steps,
// so their runs finish up to a few of their periods apart.
func TestThrottledSoldiersEndAsTheFullRateOne(t *testing.T) {
	rt := NewRuntime(Options{Host: lodSoldierHost()})
	defer rt.Close()
	d, err := rt.LoadDomain(soldierPath())
	require.NoError(t, err)
	w := engine.NewWorld(1)
	w.LOD = engine.LOD{Level: func(a *engine.Agent) int { return a.ID }, Rates: []float64{60, 10, 2}}
	reloads := map[string][]float64{}
	var lods []string
	w.OnEvent = func(e record.Event) {
		switch {
		case e.Kind == record.EventFinish && e.Action == "reload":
			reloads[e.Agent] = append(reloads[e.Agent], e.Time)
		case e.Kind == record.EventLOD:
			lods = append(lods, e.String())
		}
	}
	for i := range 3 {
		w.Add(engine.NewAgent(fmt.Sprintf("s%d", i), d))
	}
	for tick := 1; tick <= 24*60; tick++ {
		if tick == 8*60 || tick == 16*60 {
			for _, a := range w.Agents {
				a.Set("ammo", expr.NumberValue(5))
			}
		}
		w.Tick(1.0 / 60)
	}
	full := w.Agents[0]
	assert.Equal(t, expr.NumberValue(30), full.Get("ammo"))
	assert.Equal(t, expr.NumberValue(0), full.Get("magazines"))
	for i, a := range w.Agents {
		assert.Equal(t, full.State, a.State, "%s ends in the full-rate soldier's state", a.Name)
		assert.Equal(t, &[2]float64{0, 0}, a.Data, "%s is home", a.Name)
		assert.Nil(t, a.Running(), "%s is done", a.Name)
		require.Len(t, reloads[a.Name], 3, "%s reloaded after each empty magazine", a.Name)
		period := []float64{0, 0.1, 0.5}[i]
		for j, at := range reloads[a.Name] {
			assert.InDelta(t, reloads["s0"][j], at, 4*period+1e-9, "%s's reload %d", a.Name, j+1)
		}
		level, rate := a.LODLevel()
		assert.Equal(t, i, level)
		assert.Equal(t, []float64{0, 10, 2}[i], rate)
	}
	assert.Less(t, w.Agents[2].Ticks(), 24*2+1, "the far soldier thought at most twice a second")
	assert.Equal(t, []string{
		`tick    1  t=  0.000s  s1           lod         reason="level 1, 10 Hz"`,
		`tick    1  t=  0.000s  s2           lod         reason="level 2, 2 Hz"`,
	}, lods)
}

// TestRoleLODReadsTheRates: a role's lod table sets its domain's think
// rates, a child role inherits them, and bad tables are reported with
// their places.
func TestRoleLODReadsTheRates(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("far.lua", `return { name = "Far", state = { x = 0 },
  lod = { rates = { 30, 5, 0.5 } },
}`)
	write("child.lua", `return { name = "Child", extends = "far" }`)
	write("bad.lua", `return { name = "Bad",
  lod = { rates = { 30, 0, "fast" }, rate = 3 },
}`)
	write("notable.lua", `return { name = "NoTable", lod = 60 }`)
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("far.lua")
	require.NoError(t, err)
	assert.Equal(t, []float64{30, 5, 0.5}, d.ThinkRates)
	d, err = rt.LoadDomain("child.lua")
	require.NoError(t, err)
	assert.Equal(t, []float64{30, 5, 0.5}, d.ThinkRates, "inherited")
	_, err = rt.LoadDomain("bad.lua")
	bad := filepath.Join(dir, "bad.lua")
	assert.EqualError(t, err, bad+":2:11: role: lod: rate 2 must be a positive number of thinks per second, not 0\n"+
		bad+":2:11: role: lod: rate 3 must be a positive number of thinks per second, not string\n"+
		bad+`:2:38: role: lod: unknown key "rate" (did you mean "rates"?)`)
	_, err = rt.LoadDomain("notable.lua")
	assert.EqualError(t, err, filepath.Join(dir, "notable.lua")+":1:28: role: lod must be a table such as { rates = { 60, 10, 2 } }, not number")
}

// throttledSoldierTrace runs 12 shipped soldiers at 60, 10 and 2 thinks a
// second (by ID) for 16 s on the given number of workers, each worker
// with its own runtime, the game emptying their magazines at 8 s, and
// returns every record.
func throttledSoldierTrace(t *testing.T, workers int) []string {
	t.Helper()
	w := engine.NewWorld(3)
	w.Workers = workers
	w.LOD = engine.LOD{Level: func(a *engine.Agent) int { return a.ID % 3 }, Rates: []float64{60, 10, 2}}
	domains := make([]*engine.Domain, workers)
	for k := range domains {
		rt := NewRuntime(Options{Host: lodSoldierHost()})
		t.Cleanup(rt.Close)
		d, err := rt.LoadDomain(soldierPath())
		require.NoError(t, err)
		domains[k] = d
	}
	var lines []string
	w.OnEvent = func(e record.Event) { lines = append(lines, e.String()) }
	const n = 12
	for i := range n {
		k := i * workers / n
		w.Add(engine.NewAgent(fmt.Sprintf("s%02d", i), domains[k]))
		w.Pin(i, k)
	}
	for tick := 1; tick <= 16*60; tick++ {
		if tick == 8*60 {
			for _, a := range w.Agents {
				a.Set("ammo", expr.NumberValue(5))
			}
		}
		w.Tick(1.0 / 60)
	}
	return lines
}

// TestThrottledSoldierTracesAreTheSameOnAnyNumberOfWorkers: the shipped
// soldier under a level of detail makes the same records, tick for tick,
// on one worker and on four (each with its own Lua runtime).
func TestThrottledSoldierTracesAreTheSameOnAnyNumberOfWorkers(t *testing.T) {
	one := throttledSoldierTrace(t, 1)
	reloads := 0
	for _, l := range one {
		if strings.Contains(l, " finish ") && strings.Contains(l, "action=reload") {
			reloads++
		}
	}
	require.Equal(t, 12*2, reloads, "every soldier reloads after each empty magazine")
	assert.Equal(t, one, throttledSoldierTrace(t, 4))
}
