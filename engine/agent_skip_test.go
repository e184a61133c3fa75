package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// stepsBody runs for n resumes; every `every` resumes it adds add to
// variable v (when v is set), and it ends early once stop holds; at the end
// it makes its action's effects true.
type stepsBody struct {
	n, every int
	v        string
	add      float64
	stop     string // a condition; "" for none
}

func (b stepsBody) Start(a *Agent, act *Action) (Task, error) {
	t := &stepsTask{b: b, a: a, act: act}
	if b.stop != "" {
		c, err := expr.CompileCondition(b.stop, a.Domain.Schema)
		if err != nil {
			return nil, err
		}
		t.stop = c
	}
	return t, nil
}

type stepsTask struct {
	b    stepsBody
	a    *Agent
	act  *Action
	stop *expr.Condition
	done int
}

func (t *stepsTask) Resume(float64) (Status, error) {
	t.done++
	if t.b.v != "" && t.b.every > 0 && t.done%t.b.every == 0 {
		x, _ := t.a.Get(t.b.v).AsNumber()
		t.a.Set(t.b.v, expr.NumberValue(x+t.b.add))
	}
	if t.stop != nil && t.stop.Eval(t.a.State) {
		return Succeeded, nil
	}
	if t.done < t.b.n {
		return Running, nil
	}
	return ApplyEffects(t.a, t.act)
}

func (t *stepsTask) Interrupt() {}

// skipRole is a soldier in Go: a goal keeps it armed (GOAP), and while it
// is armed the utility planner picks attack, cover or retreat from state
// variables only (so re-scores may be skipped). noise is read by nothing;
// alarm only by a low goal that nothing can achieve.
func skipRole() RoleSpec {
	in := func(name, v string, min, max float64) ConsiderationSpec {
		return ConsiderationSpec{Name: name, Input: v, Min: min, Max: max}
	}
	combat := UtilitySpec{Tags: []string{"combat"}}
	attack := NewAction("attack").Pre("enemy_visible && ammo > 0").utility(combat).
		Body(stepsBody{n: 1000, every: 3, v: "ammo", add: -1, stop: "ammo <= 0 || !enemy_visible"}).Spec()
	attack.Considerations = []ConsiderationSpec{in("ammo", "ammo", 0, 30), in("healthy", "health", 0, 100),
		in("near", "enemy_distance", 800, 0)}
	cover := NewAction("takeCover").Pre("enemy_visible && !in_cover").Effects("in_cover = true").utility(combat).
		Body(stepsBody{n: 5}).Spec()
	cover.Considerations = []ConsiderationSpec{in("hurt", "health", 100, 0), in("near", "enemy_distance", 800, 0)}
	retreat := NewAction("retreat").Pre("enemy_visible").utility(combat).Body(stepsBody{n: 9}).Spec()
	retreat.Considerations = []ConsiderationSpec{{Name: "badly hurt", Input: "health", Min: 100, Max: 0,
		Curve: &curve.Curve{Kind: curve.Logistic, Slope: 14, Offset: 0.75}}}
	return RoleSpec{Name: "Soldier", Decide: "hybrid", UtilityMode: UtilityMultiply,
		Considerations: []ConsiderationSpec{{Kind: ConsiderHasTag, Tag: "combat"}},
		State: []Var{{"ammo", expr.NumberValue(0)}, {"magazines", expr.NumberValue(0)}, {"health", expr.NumberValue(100)},
			{"enemy_visible", expr.BoolValue(true)}, {"enemy_distance", expr.NumberValue(300)}, {"in_cover", expr.BoolValue(false)},
			{"noise", expr.NumberValue(0)}, {"alarm", expr.NumberValue(0)}},
		// calm has no plan: it only decides whether the agent is making
		// progress (checkProgress), and the world flips it.
		Goals: []GoalSpec{NewGoal("armed", "ammo > 10", High), NewGoal("calm", "alarm < 3", Low)},
		Actions: []ActionSpec{
			NewAction("fetchMagazine").Effects("magazines = magazines + 1").Cost(2).Body(stepsBody{n: 4}).Spec(),
			NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").
				Cost(1).Body(stepsBody{n: 3}).Spec(),
			attack, cover, retreat,
		}}
}

// skipWorld is a world (seed) of n agents of d, every third one with each
// of the re-score periods 0, never and 0.25 s, every fourth with each of
// the STUCK delays 10 s (the default), 0.05 s, 0.1 s and never, whose records are appended
// in full to *out; the replanning checks and re-scores are all made, as
// if nothing could be skipped, when checkAll is set, until t ends.
func skipWorld(t *testing.T, d *Domain, seed uint64, n int, checkAll bool) (w *World, out *[]string) {
	t.Helper()
	saved := testHooks.checkEverything
	testHooks.checkEverything = checkAll
	t.Cleanup(func() { testHooks.checkEverything = saved })
	w = NewWorld(seed)
	out = new([]string)
	w.OnEvent = func(e record.Event) { *out = append(*out, e.Kind.String()+": "+fmt.Sprintf("%+v", e)) }
	for i := range n {
		a := NewAgent(fmt.Sprintf("s%d", i), d)
		a.RethinkEvery = []float64{0, -1, 0.25}[i%3]
		a.StuckAfter = []float64{0, 0.05, 0.1, -1}[i%4] // some get STUCK and recover, some never
		w.Add(a)
	}
	return w, out
}

// skipRun runs agents soldiers of skipRole for ticks ticks while the world
// writes their state at random between ticks (variables the checks read,
// one nothing reads, and values equal to the old ones; an agent's state
// is written in about 1 of sparse ticks), and returns every record in
// full.
func skipRun(t *testing.T, agents, ticks, workers, budget, sparse int, checkAll bool) []string {
	t.Helper()
	d, err := Compile(skipRole())
	require.NoError(t, err)
	w, out := skipWorld(t, d, 3, agents, checkAll)
	w.Workers, w.PlanBudget = workers, budget
	r := rand.New(rand.NewPCG(1, 2))
	for range ticks {
		for _, a := range w.Agents {
			num := func(name string) float64 { x, _ := a.Get(name).AsNumber(); return x }
			switch p := r.IntN(100 * sparse); {
			case p < 20:
				a.Set("noise", expr.NumberValue(float64(r.IntN(5))))
			case p < 25:
				a.Set("alarm", expr.NumberValue(float64(r.IntN(5))))
			case p < 40:
				a.Set("health", expr.NumberValue(max(0, min(100, num("health")+float64(r.IntN(41)-25)))))
			case p < 45:
				a.Set("enemy_visible", expr.BoolValue(!a.Get("enemy_visible").Truthy()))
			case p < 52:
				a.Set("enemy_distance", expr.NumberValue(float64(r.IntN(800))))
			case p < 60:
				a.Set("ammo", a.Get("ammo")) // the same value
			case p < 63:
				a.Set("in_cover", expr.BoolValue(false))
			case p < 66:
				a.Set("ammo", expr.NumberValue(float64(r.IntN(31))))
			case p < 68:
				a.Set("magazines", expr.NumberValue(0))
			}
		}
		w.Tick(1.0 / 60)
	}
	w.Finish()
	return *out
}

// TestSkippedChecksChangeNothing: the replanning checks skipped because the
// world changed nothing they read, and the re-scores skipped because no
// input of the scores changed, leave every record as checking everything
// every time does, on 1 and 2 workers and under a plan budget.
func TestSkippedChecksChangeNothing(t *testing.T) {
	for _, tc := range []struct{ workers, budget, sparse int }{{1, 0, 1}, {1, 0, 3}, {2, 0, 1}, {2, 0, 3}, {1, 40, 1}, {1, 40, 3}} {
		t.Run(fmt.Sprintf("workers=%d/budget=%d/sparse=%d", tc.workers, tc.budget, tc.sparse), func(t *testing.T) {
			want := skipRun(t, 24, 900, tc.workers, tc.budget, tc.sparse, true)
			got := skipRun(t, 24, 900, tc.workers, tc.budget, tc.sparse, false)
			require.Greater(t, len(want), 2000, "the run makes records")
			kinds := map[string]int{}
			for _, l := range want {
				kinds[l[:strings.Index(l, ":")]]++
			}
			for _, k := range []string{record.EventInterrupt.String(), record.EventPick.String(), record.EventPlan.String(), record.EventStuck.String(), record.EventRecovered.String()} {
				assert.Greater(t, kinds[k], 2, "the run has %s records", k)
			}
			assert.Equal(t, want, got)
		})
	}
}

// TestChangedSlots: a slot counts as changed when its kind, number or
// string differs, and not when the values are stored alike.
func TestChangedSlots(t *testing.T) {
	x := expr.State{expr.NumberValue(0), expr.BoolValue(false), expr.StringValue("a"), {}, expr.NumberValue(2)}
	y := expr.State{expr.BoolValue(false), expr.BoolValue(false), expr.StringValue("b"), {}, expr.NumberValue(2)}
	assert.Equal(t, uint64(0b00101), changedSlots(x, y), "slot 0: a number against a boolean, both 0; slot 2: another string")
	assert.Equal(t, uint64(0), changedSlots(x, x.Clone()))
}
