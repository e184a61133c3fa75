package luabind

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestRestrictedNamesAnAuthority(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	d, err := rt.LoadDomain("secured.lua")
	require.NoError(t, err)
	rob, beg, work := d.Action("Rob"), d.Action("Beg"), d.Action("Work")
	assert.Equal(t, "crime", rob.Authority)
	assert.False(t, rob.Restricted, "a string names an authority; it is not the always-refused flag")
	assert.True(t, beg.Restricted)
	assert.Equal(t, "", beg.Authority)
	assert.False(t, work.Secured())

	_, err = rt.LoadDomain("bad_restricted.lua")
	require.Error(t, err)
	f := filepath.Join("testdata", "decisions", "bad_restricted.lua")
	assert.Contains(t, err.Error(), f+`:5:46: action "Rob": restricted must name an authority, not the empty string`)
	assert.Contains(t, err.Error(), f+`:6:46: action "Beg": restricted must be true, false or the name of an authority, not number`)
}

func TestFulfillsFromLua(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	d, err := rt.LoadDomain("pray.lua")
	require.NoError(t, err)
	p, err := engine.NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"Pray"}, p.Names(), "Pray fulfills warm: one step, cost 1, against Chop, Chop, Light at 3")

	w := engine.NewWorld(1)
	a := engine.NewAgent("p", d)
	w.Add(a)
	var got []string
	w.OnEvent = func(e record.Event) { got = append(got, e.Kind.String()+" "+e.Action) }
	for i := 0; i < 5; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"plan ", "start Pray", "finish Pray", "idle "}, got)
	assert.Equal(t, expr.BoolValue(true), a.Get("fire"))
}

func TestSensorDtFromLua(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	d, err := rt.LoadDomain("clock.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("c", d)
	w.Add(a)
	for i := 0; i < 30; i++ {
		w.Tick(0.1)
	}
	played, _ := a.Get("played").AsNumber()
	looked, _ := a.Get("looked").AsNumber()
	assert.InDelta(t, 3.0, played, 1e-9, "an every-tick sensor summing its dt reads 3 s after 3 s of play")
	assert.InDelta(t, 2.6, looked, 1e-9, "runs at t = 0 (0.1 s), 0.5, 1, 1.5, 2, 2.5 (0.5 s each)")
}

func runTyped(t *testing.T, file string, ticks int) (*engine.Agent, []string) {
	t.Helper()
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("npc", d)
	w.Add(a)
	var got []string
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventPlan, record.EventFinish, record.EventPlanFailed, record.EventReplan:
			line := fmt.Sprintf("%d %s %s%s", e.Tick, e.Kind, e.Action, strings.Join(e.Plan, ","))
			if e.Reason != "" {
				line += ": " + e.Reason
			}
			got = append(got, line)
		}
	}
	for i := 0; i < ticks; i++ {
		w.Tick(0.1)
	}
	return a, got
}

func TestPostPromisesAndCanRerun(t *testing.T) {
	tests := []struct {
		name, reason string
		file         string
		want         []string
		done         bool
	}{
		{name: "can_rerun", reason: "the first draft breaks its promise; confirm cannot start; assembleSchedule runs again and keeps it",
			file: "rerun.lua", done: true, want: []string{
				"1 plan research,assembleSchedule,confirmSchedule",
				"1 finish research",
				"2 finish assembleSchedule: broken promise: noDoubleBooking",
				"3 replan confirmSchedule: precondition \"noDoubleBooking && DraftSchedule\" of the next step no longer holds",
				"3 plan assembleSchedule,confirmSchedule",
				"3 finish assembleSchedule",
				"4 finish confirmSchedule",
			}},
		{name: "can_rerun = false", reason: "assembleSchedule ran once for this goal: the second run is stopped, and the reason says so",
			file: "once.lua", done: false, want: []string{
				"1 plan research,assembleSchedule,confirmSchedule",
				"1 finish research",
				"2 finish assembleSchedule: broken promise: noDoubleBooking",
				"3 replan confirmSchedule: precondition \"noDoubleBooking && DraftSchedule\" of the next step no longer holds",
				"3 plan-failed : CANNOT_RERUN: a plan exists only through action \"assembleSchedule\", which already ran while this goal is pursued and cannot run again (can_rerun = false)",
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, got := runTyped(t, tc.file, 6)
			assert.Equal(t, tc.want, got, tc.reason)
			assert.Equal(t, expr.BoolValue(tc.done), a.Get("PersonalSchedule"), tc.reason)
			if tc.done {
				fact, ok := a.Fact("PersonalSchedule").(*lua.LTable)
				require.True(t, ok, "the body stored a Lua table on the blackboard")
				slots := fact.RawGetString("slots").(*lua.LTable)
				assert.Equal(t, lua.LNumber(2), slots.RawGetInt(2))
			}
		})
	}
}

func TestCheckTypedContracts(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	_, err := rt.LoadDomain("bad_typed.lua")
	require.Error(t, err)
	f := filepath.Join("testdata", "decisions", "bad_typed.lua")
	for _, want := range []string{
		f + `:5:7: action "shortlist" input "AttendeeProfil": no action's output produces it and no state sets it (did you mean "AttendeeProfile"?)`,
		f + `:5:7: action "shortlist" post "hasCandidate" names no condition (did you mean "hasCandidates"?)`,
		f + `:6:54: action "profile": inputs must list type names, not number`,
		f + `:7:7: action "finish" achieves_goal "done", which is no goal, and the action has no output to make one of`,
	} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestWholePlanWatchedFromLua(t *testing.T) {
	tests := []struct {
		name, reason string
		set          string
		want         []string
		interrupted  float64
	}{
		{name: "new plan begins with the running action", reason: "the front closes: FetchKey goes on, then UseBack",
			set: "front_open", want: []string{"start FetchKey", "replan FetchKey", "finish FetchKey", "start UseBack", "finish UseBack"}},
		{name: "the world lets it in", reason: "inside becomes true while FetchKey waits: it is interrupted and on_interrupt runs",
			set: "inside", want: []string{"start FetchKey", "interrupt FetchKey"}, interrupted: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
			defer rt.Close()
			d, err := rt.LoadDomain("door.lua")
			require.NoError(t, err)
			w := engine.NewWorld(1)
			a := engine.NewAgent("b", d)
			w.Add(a)
			var got []string
			w.OnEvent = func(e record.Event) {
				switch e.Kind {
				case record.EventStart, record.EventFinish, record.EventInterrupt, record.EventReplan:
					got = append(got, e.Kind.String()+" "+e.Action)
				}
			}
			for i := 0; i < 10; i++ {
				if i == 2 {
					a.Set(tc.set, expr.BoolValue(tc.set == "inside"))
				}
				w.Tick(0.1)
			}
			assert.Equal(t, tc.want, got, tc.reason)
			n, _ := a.Get("interrupted").AsNumber()
			assert.Equal(t, tc.interrupted, n, tc.reason)
		})
	}
}
