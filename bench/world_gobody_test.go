package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// The engine's share of an agent-tick, measured on its own: the soldiers
// of BenchmarkWorldTickCPU with the bodies of scripts/soldier.lua written
// in Go (goSoldierBody), so that a tick runs no Lua at all. The domain is
// still the one luabind loads from the script (goals, actions,
// considerations, decide mode); only each action's Body is replaced.
// TestGoBodiesMatchLua checks that the Go bodies make the same records as
// the Lua ones, tick by tick.

// The soldier's bodies, by action name.
const (
	bodyAttack = iota
	bodyFetch
	bodyReload
	bodyCover
	bodyRetreat
)

var goSoldierKinds = map[string]int{"attack": bodyAttack, "fetchMagazine": bodyFetch, "reload": bodyReload,
	"takeCover": bodyCover, "retreat": bodyRetreat}

// goSoldierBody is one of soldier.lua's action bodies in Go. It calls the
// same host functions as the script (soldierHost), with the same first
// call (DT 0) and the same polling once a tick while move_to is not done,
// and waits as npc:wait does (the tick's dt added up until it reaches the
// time, less 1e-9), so a run takes the same ticks as the script's.
// It is safe for concurrent use: each Start makes its own task.
type goSoldierBody struct {
	kind int
	host map[string]luabind.HostFunc
}

// useGoBodies replaces the bodies of soldier.lua's actions in d with Go
// ones (goSoldierBody).
func useGoBodies(d *engine.Domain) {
	host := soldierHost()
	for _, act := range d.Actions {
		k, ok := goSoldierKinds[act.Name]
		if !ok {
			panic("bench: soldier.lua has an action with no Go body: " + act.Name)
		}
		act.Body = goSoldierBody{kind: k, host: host}
	}
}

// goSoldier is a Go-bodied soldier's Data: its position (as soldierHost
// keeps it) and the one task its bodies run, which each Start makes anew
// in place, as a Go game that cares for its garbage would: an agent runs
// one body at a time, and the engine is done with a task when it starts
// the next.
type goSoldier struct {
	pos  [2]float64
	task goSoldierTask
}

// Start implements engine.Body.
func (b goSoldierBody) Start(a *engine.Agent, _ *engine.Action) (engine.Task, error) {
	d, ok := a.Data.(*goSoldier)
	if !ok {
		d = &goSoldier{}
		if p, ok := a.Data.(*[2]float64); ok {
			d.pos = *p
		}
		a.Data = d
	}
	t := &d.task
	*t = goSoldierTask{kind: b.kind, a: a, position: b.host["position"], nearest: b.host["nearest"],
		moveTo: b.host["move_to"], shoot: b.host["shoot"], call: luabind.HostCall{Results: t.call.Results[:0]}}
	return t, nil
}

// goSoldierTask is one run of a goSoldierBody: pc is where the script's
// code goes on at the next resume that is not spent waiting.
type goSoldierTask struct {
	kind, pc                         int
	a                                *engine.Agent
	position, nearest, moveTo, shoot luabind.HostFunc
	call                             luabind.HostCall // the running host call
	args                             [2]expr.Value
	moving, sleeping                 bool
	slept, sleepFor                  float64
	home                             [2]float64
}

// Resume implements engine.Task, as luabind's task does: the wait (a sleep
// or an unfinished move_to) first, then the body's code until it waits
// again or ends.
func (t *goSoldierTask) Resume(dt float64) (engine.Status, error) {
	switch {
	case t.sleeping:
		t.slept += dt
		if t.slept < t.sleepFor-1e-9 {
			return engine.Running, nil
		}
		t.sleeping = false
	case t.moving:
		t.call.First, t.call.DT = false, dt
		done, err := t.moveTo(&t.call)
		if err != nil {
			return engine.Failed, err
		}
		if !done {
			return engine.Running, nil
		}
		t.moving = false
	}
	return t.run(), nil
}

func (t *goSoldierTask) Interrupt() {}

// Asleep implements engine.Sleeper as luabind's tasks do: while the body
// sleeps, the resumes after which its wait is still not over.
func (t *goSoldierTask) Asleep(dt float64) int {
	if !t.sleeping {
		return 0
	}
	return engine.SleepResumes(t.slept, t.sleepFor, dt)
}

// Slept implements engine.Sleeper.
func (t *goSoldierTask) Slept(n int, dt float64) { t.slept = engine.AddSleeps(t.slept, n, dt) }

// host calls f once with up to two arguments and returns its two
// results.
func (t *goSoldierTask) host(f luabind.HostFunc, name string, args ...expr.Value) (float64, float64) {
	n := copy(t.args[:], args)
	t.call = luabind.HostCall{Agent: t.a, Name: name, Args: t.args[:n], First: true, Results: t.call.Results[:0]}
	if _, err := f(&t.call); err != nil {
		panic(err)
	}
	if len(t.call.Results) < 2 {
		return 0, 0
	}
	x, _ := t.call.Results[0].AsNumber()
	y, _ := t.call.Results[1].AsNumber()
	return x, y
}

// startMove calls move_to(x, y) for the first time and reports whether it
// is done; when not, the task polls it from the next resume on.
func (t *goSoldierTask) startMove(x, y float64) bool {
	t.args = [2]expr.Value{expr.NumberValue(x), expr.NumberValue(y)}
	t.call = luabind.HostCall{Agent: t.a, Name: "move_to", Args: t.args[:], First: true, Results: t.call.Results[:0]}
	done, _ := t.moveTo(&t.call)
	t.moving = !done
	return done
}

func (t *goSoldierTask) wait(s float64) engine.Status {
	t.sleeping, t.slept, t.sleepFor = true, 0, s
	return engine.Running
}

func (t *goSoldierTask) num(name string) float64 {
	x, _ := t.a.Get(name).AsNumber()
	return x
}

// run goes on with the body's code from pc; it returns Running when the
// body waits.
func (t *goSoldierTask) run() engine.Status {
	a := t.a
	switch t.kind {
	case bodyAttack:
		// while true: shoot, count down, wait 0.2 s, look again
		if t.pc == 1 && (!a.Get("enemy_visible").Truthy() || t.num("enemy_health") <= 0) {
			return engine.Succeeded
		}
		t.host(t.shoot, "shoot")
		a.Set("ammo", expr.NumberValue(t.num("ammo")-1))
		if t.num("ammo") <= 0 {
			return engine.Succeeded
		}
		t.pc = 1
		return t.wait(0.2)
	case bodyFetch:
		switch t.pc {
		case 0:
			t.home[0], t.home[1] = t.host(t.position, "position")
			cx, cy := t.host(t.nearest, "nearest", expr.StringValue("ammo_crate"))
			t.pc = 1
			if !t.startMove(cx, cy) {
				return engine.Running
			}
			fallthrough
		case 1:
			t.pc = 2
			return t.wait(0.5)
		case 2:
			a.Set("magazines", expr.NumberValue(t.num("magazines")+1))
			t.pc = 3
			if !t.startMove(t.home[0], t.home[1]) {
				return engine.Running
			}
		}
		return engine.Succeeded
	case bodyReload:
		if t.pc == 0 {
			t.pc = 1
			return t.wait(1.5)
		}
		a.Set("ammo", expr.NumberValue(30))
		a.Set("magazines", expr.NumberValue(t.num("magazines")-1))
		return engine.Succeeded
	case bodyCover:
		if t.pc == 0 {
			x, y := t.host(t.nearest, "nearest", expr.StringValue("cover"))
			t.pc = 1
			if !t.startMove(x, y) {
				return engine.Running
			}
		}
		a.Set("in_cover", expr.BoolValue(true))
		return engine.Succeeded
	case bodyRetreat:
		switch t.pc {
		case 0:
			x, y := t.host(t.nearest, "nearest", expr.StringValue("rally"))
			t.pc = 1
			if !t.startMove(x, y) {
				return engine.Running
			}
			fallthrough
		case 1:
			t.pc = 2
			return t.wait(3)
		}
		return engine.Succeeded
	}
	return engine.Failed
}

// goSoldierWorld is soldierWorld with Go bodies (useGoBodies).
func goSoldierWorld(b testing.TB, n, workers int) (*engine.World, func()) {
	return buildSoldierWorldWith(b, n, workers, 1, 0, 120, useGoBodies)
}

// BenchmarkWorldTickGoBodies is BenchmarkWorldTickCPU's world of 10,000
// soldiers with Go bodies: the engine's own part of an agent-tick (the
// decisions, checks, re-scores, records and the world's lanes), with the
// bodies' few Go instructions and no Lua. Over 600 ticks, a whole
// attack-fetch-reload cycle, like BenchmarkWorldTickCPU.
func BenchmarkWorldTickGoBodies(b *testing.B) {
	worldTickCPU(b, []int{1000, 10000}, goSoldierWorld)
}

// soldierRecords runs n soldiers (Lua bodies, or Go ones with goBodies)
// for ticks ticks on the given workers and returns every record.
func soldierRecords(t *testing.T, n, workers, ticks int, goBodies bool) []string {
	t.Helper()
	var adapt func(*engine.Domain)
	if goBodies {
		adapt = useGoBodies
	}
	return soldierRecordsWith(t, n, workers, ticks, adapt, func(int) float64 { return 1.0 / 60 })
}

// soldierRecordsWith is soldierRecords with the domains adapted by adapt
// and tick i of dt(i) seconds.
func soldierRecordsWith(t *testing.T, n, workers, ticks int, adapt func(*engine.Domain), dt func(int) float64) []string {
	t.Helper()
	w, done := buildSoldierWorldWith(t, n, workers, 3, 7, 0, adapt)
	defer done()
	var out []string
	type fields record.Event // every field, not Event.String's summary
	w.OnEvent = func(e record.Event) { out = append(out, e.String()+fmt.Sprintf(" %+v", fields(e))) }
	for i := range ticks {
		w.Tick(dt(i))
	}
	w.Finish()
	return out
}

// TestGoBodiesMatchLua: the Go bodies of BenchmarkWorldTickGoBodies do
// what soldier.lua's do, to the tick: every record of 30 soldiers over a
// whole attack-fetch-reload cycle is the same with either, on 1 and 2
// workers.
func TestGoBodiesMatchLua(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			want := soldierRecords(t, 30, workers, 700, false)
			got := soldierRecords(t, 30, workers, 700, true)
			require.Greater(t, len(want), 30*8, "the soldiers make records")
			for _, act := range []string{"attack", "fetchMagazine", "reload"} {
				n := 0
				for _, l := range want {
					if strings.Contains(l, " finish ") && strings.Contains(l, " action="+act) {
						n++
					}
				}
				assert.GreaterOrEqual(t, n, 30, "every soldier finishes %s", act)
			}
			assert.Equal(t, want, got)
		})
	}
}

// awakeBody hides that a body's tasks are engine.Sleepers, so the agent
// resumes them on every tick.
type awakeBody struct{ b engine.Body }

func (b awakeBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	t, err := b.b.Start(a, act)
	if err != nil {
		return nil, err
	}
	return awakeTask{t}, nil
}

type awakeTask struct{ engine.Task }

// TestSkippedSleepsChangeNothing: soldier.lua's bodies sleep in npc:wait
// (luabind's tasks are engine.Sleepers, so the agents skip those
// resumes), and every record is what resuming them every tick gives, with
// ticks of 1/60 s and with a tick of 1/30 s now and then.
func TestSkippedSleepsChangeNothing(t *testing.T) {
	_, sleeper := any(&goSoldierTask{}).(engine.Sleeper)
	require.True(t, sleeper, "the Go bodies sleep as the Lua ones do")
	awake := func(d *engine.Domain) {
		for _, act := range d.Actions {
			act.Body = awakeBody{act.Body}
		}
	}
	for name, dt := range map[string]func(int) float64{
		"dt=1/60": func(int) float64 { return 1.0 / 60 },
		"dt=varies": func(i int) float64 {
			return []float64{1.0 / 60, 1.0 / 60, 1.0 / 30, 1.0 / 60, 1.0 / 60, 1.0 / 60, 0.05}[i%7]
		},
	} {
		t.Run(name, func(t *testing.T) {
			want := soldierRecordsWith(t, 30, 1, 700, awake, dt)
			got := soldierRecordsWith(t, 30, 1, 700, nil, dt)
			require.Greater(t, len(want), 30*8, "the soldiers make records")
			assert.Equal(t, want, got)
		})
	}
}
