package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

func num(f float64) expr.Value  { return expr.NumberValue(f) }
func str(s string) expr.Value   { return expr.StringValue(s) }
func boolean(b bool) expr.Value { return expr.BoolValue(b) }

func soldierRole() RoleSpec {
	return RoleSpec{
		Name:  "Soldier",
		State: []Var{{"ammo", num(0)}, {"magazines", num(0)}},
		Goals: []GoalSpec{NewGoal("armed", "ammo > 10", High)},
		Actions: []ActionSpec{
			NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec(),
			NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		},
	}
}

func TestSeedSoldierPlan(t *testing.T) {
	d, err := Compile(soldierRole())
	require.NoError(t, err)
	p, err := NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, p.Names())
	assert.Equal(t, 2.0, p.Cost)
	require.Len(t, p.Goals, 1)
	assert.Equal(t, "armed", p.Goals[0].Goal.Name)
}

func planCase(t *testing.T, state []Var, goal string, actions ...ActionSpec) (*Plan, error) {
	t.Helper()
	d, err := Compile(RoleSpec{Name: "T", State: state, Goals: []GoalSpec{NewGoal("g", goal, Normal)}, Actions: actions})
	require.NoError(t, err)
	return NewPlanner(d).Plan(d.NewState())
}

func TestPlannerCases(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		state   []Var
		goal    string
		actions []ActionSpec
		want    []string
		cost    float64
	}{
		{"travel then pick", "two goals' parts share one travel step",
			[]Var{{"loc", str("home")}, {"a", boolean(false)}, {"b", boolean(false)}}, "a && b",
			[]ActionSpec{NewAction("Travel").Effects(`loc = "field"`).Cost(10).Spec(),
				NewAction("PickA").Pre(`loc == "field"`).Effects("a = true").Cost(1).Spec(),
				NewAction("PickB").Pre(`loc == "field"`).Effects("b = true").Cost(2).Spec()},
			[]string{"Travel", "PickA", "PickB"}, 13},
		{"grow", "a precondition on the variable the goal reads",
			[]Var{{"age", num(1)}}, "age == 2",
			[]ActionSpec{NewAction("Grow").Pre("age == 1").Effects("age = 2").Spec()},
			[]string{"Grow"}, 1},
		{"carry place", "negated preconditions",
			[]Var{{"tool", boolean(false)}, {"stored", boolean(true)}, {"placed", boolean(false)}}, "placed",
			[]ActionSpec{NewAction("Carry").Pre("!tool && stored").Effects("tool = true, stored = false").Spec(),
				NewAction("Place").Pre("tool && !placed").Effects("tool = false, placed = true").Spec()},
			[]string{"Carry", "Place"}, 2},
		{"melee when no bow", "an unreachable candidate gives way to a costlier one",
			[]Var{{"hasBow", boolean(false)}, {"arrows", boolean(false)}}, "down",
			[]ActionSpec{NewAction("GetArrows").Effects("arrows = true").Spec(),
				NewAction("Shoot").Pre("hasBow && arrows").Effects("down = true").Spec(),
				NewAction("Melee").Effects("down = true").Cost(5).Spec()},
			[]string{"Melee"}, 5},
		{"chop five", "an action repeats",
			[]Var{{"wood", num(0)}}, "wood >= 5",
			[]ActionSpec{NewAction("Chop").Effects("wood = wood + 1").Spec()},
			[]string{"Chop", "Chop", "Chop", "Chop", "Chop"}, 5},
		{"scout fast first", "cheapest wins whatever the order",
			[]Var{{"seen", boolean(false)}, {"armed", boolean(true)}}, "seen",
			[]ActionSpec{NewAction("ScoutSlow").Pre("!seen && armed").Effects("seen = true").Cost(999).Spec(),
				NewAction("ScoutFast").Pre("!seen && armed").Effects("seen = true").Cost(15).Spec()},
			[]string{"ScoutFast"}, 15},
		{"scout fast second", "cheapest wins whatever the order",
			[]Var{{"seen", boolean(false)}, {"armed", boolean(true)}}, "seen",
			[]ActionSpec{NewAction("ScoutFast").Pre("!seen && armed").Effects("seen = true").Cost(15).Spec(),
				NewAction("ScoutSlow").Pre("!seen && armed").Effects("seen = true").Cost(999).Spec()},
			[]string{"ScoutFast"}, 15},
		{"throw once", "the search ends",
			[]Var{{"thrown", boolean(false)}}, "thrown",
			[]ActionSpec{NewAction("Throw").Pre("!thrown").Effects("thrown = true").Spec()},
			[]string{"Throw"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := planCase(t, tc.state, tc.goal, tc.actions...)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, p.Names(), tc.reason)
			assert.Equal(t, tc.cost, p.Cost, tc.reason)
		})
	}
}

func TestPlannerSkipsSatisfiedHigherGoal(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "T",
		State: []Var{{"fed", boolean(true)}, {"warm", boolean(false)}},
		Goals: []GoalSpec{NewGoal("eat", "fed", Critical), NewGoal("heat", "warm", Low)},
		Actions: []ActionSpec{NewAction("Eat").Effects("fed = true").Fulfills("eat").Spec(),
			NewAction("Fire").Effects("warm = true").Spec()}})
	require.NoError(t, err)
	p, err := NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"Fire"}, p.Names())
	require.Len(t, p.Goals, 1)
	assert.Equal(t, "heat", p.Goals[0].Goal.Name)
}

func TestPlannerFailures(t *testing.T) {
	t.Run("unreachable", func(t *testing.T) {
		_, err := planCase(t, []Var{{"x", num(0)}}, "y > 1", NewAction("A").Effects("x = 1").Spec())
		var pe *PlanError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, Unreachable, pe.Reason)
		assert.Equal(t, "g", pe.Goal)
	})
	t.Run("cyclic", func(t *testing.T) {
		_, err := planCase(t, []Var{{"key", boolean(false)}}, "open",
			NewAction("Open").Pre("key").Effects("open = true, key = true").Spec())
		var pe *PlanError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, CyclicPrecondition, pe.Reason)
		assert.Equal(t, "Open", pe.Action)
		assert.Equal(t, "key", pe.Precondition)
		assert.Equal(t, `"Open" needs key, and only "Open" itself changes key, so it can never go first: `+
			`give key a starting value that lets it run, or add an action (or a sensor) that changes key without needing it`, pe.Detail)
	})
	t.Run("max depth", func(t *testing.T) {
		d, err := Compile(RoleSpec{Name: "T", State: []Var{{"wood", num(0)}},
			Goals: []GoalSpec{NewGoal("g", "wood >= 5", Normal)}, Actions: []ActionSpec{NewAction("Chop").Effects("wood = wood + 1").Spec()}})
		require.NoError(t, err)
		_, err = depthPlanner(d, 3).Plan(d.NewState())
		var pe *PlanError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, MaxDepthExceeded, pe.Reason)
		assert.Equal(t, 3, pe.MaxDepth)
		assert.Contains(t, pe.Detail, "a plan of 5 steps exists")
	})
	t.Run("budget", func(t *testing.T) {
		d, err := Compile(RoleSpec{Name: "T", State: []Var{{"wood", num(0)}, {"stone", num(0)}},
			Goals: []GoalSpec{NewGoal("g", "wood == 0.5", Normal)}, Actions: []ActionSpec{
				NewAction("Chop").Effects("wood = wood + 1").Spec(), NewAction("Mine").Effects("stone = stone + 1").Spec()}})
		require.NoError(t, err)
		pl := depthPlanner(d, 200)
		pl.Budget = 50
		_, err = pl.Plan(d.NewState())
		var pe *PlanError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, SearchBudgetExceeded, pe.Reason)
		assert.Equal(t, 50, pe.Expansions)
	})
}

func TestPlannerSteadyStateDoesNotAllocate(t *testing.T) {
	d, err := Compile(soldierRole())
	require.NoError(t, err)
	pl := NewPlanner(d)
	st := d.NewState()
	_, err = pl.Plan(st)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() { _, _ = pl.Plan(st) })
	assert.Equal(t, 0.0, allocs)
}

func TestPlannerTiesGoToDeclarationOrder(t *testing.T) {
	// Both plans cost 3. [Prep, Finish] comes first when Prep is declared
	// before Direct, even though uniform-cost search meets Direct's node
	// first; declared the other way round, [Direct] comes first.
	prep := NewAction("Prep").Effects("ready = true").Cost(1).Spec()
	direct := NewAction("Direct").Effects("done = true").Cost(3).Spec()
	finish := NewAction("Finish").Pre("ready").Effects("done = true").Cost(2).Spec()
	state := []Var{{"ready", boolean(false)}, {"done", boolean(false)}}
	tests := []struct {
		name    string
		reason  string
		actions []ActionSpec
		want    []string
	}{
		{"helper first", "Prep < Direct at the first step", []ActionSpec{prep, direct, finish}, []string{"Prep", "Finish"}},
		{"direct first", "Direct < Prep at the first step", []ActionSpec{direct, prep, finish}, []string{"Direct"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := planCase(t, state, "done", tc.actions...)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, p.Names(), tc.reason)
			assert.Equal(t, 3.0, p.Cost, tc.reason)
		})
	}
}

func TestPlannerCandidatesByParsedVariable(t *testing.T) {
	t.Run("only a longer name is assigned", func(t *testing.T) {
		_, err := planCase(t, []Var{{"ammo", num(0)}, {"ammoBox", num(0)}}, "ammo > 10",
			NewAction("FillBox").Effects("ammoBox = 50").Spec())
		var pe *PlanError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, Unreachable, pe.Reason, "an effect on ammoBox is no candidate for a goal on ammo")
		assert.Contains(t, pe.Detail, "no action fulfills the goal or assigns a variable")
	})
	t.Run("the longer name is not chained", func(t *testing.T) {
		p, err := planCase(t, []Var{{"ammo", num(0)}, {"ammoBox", num(0)}}, "ammo > 10",
			NewAction("FillBox").Effects("ammoBox = 50").Spec(),
			NewAction("Load").Effects("ammo = 30").Cost(2).Spec())
		require.NoError(t, err)
		assert.Equal(t, []string{"Load"}, p.Names())
	})
}

func TestPlannerSeveralGoals(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "T",
		State: []Var{{"x", num(0)}, {"y", boolean(false)}},
		Goals: []GoalSpec{NewGoal("late", "y", Low), NewGoal("first", "x >= 2", Critical)},
		Actions: []ActionSpec{
			NewAction("Inc").Effects("x = x + 1").Spec(),
			NewAction("Use").Pre("x >= 2").Effects("y = true").Spec(),
		}})
	require.NoError(t, err)
	st := d.NewState()
	p, err := NewPlanner(d).Plan(st)
	require.NoError(t, err)
	assert.Equal(t, []string{"Inc", "Inc", "Use"}, p.Names(), "the low goal is planned from the state the critical goal's steps leave")
	assert.Equal(t, d.NewState(), st, "the steps are applied to a copy: the state given to Plan is only read")
	require.Len(t, p.Goals, 2)
	assert.Equal(t, "first", p.Goals[0].Goal.Name)
	assert.Equal(t, []string{"Inc", "Inc"}, (&Plan{Steps: p.Goals[0].Steps}).Names())
	assert.Equal(t, 2.0, p.Goals[0].Cost)
	assert.Equal(t, "late", p.Goals[1].Goal.Name)
	assert.Equal(t, 3.0, p.Cost)
}

func TestPlannerPlanFor(t *testing.T) {
	d, err := Compile(soldierRole())
	require.NoError(t, err)
	pl := NewPlanner(d)
	armed := d.Goal("armed")
	require.NotNil(t, armed)
	p, err := pl.PlanFor(armed, d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, p.Names())

	st := d.NewState()
	st.Set(d.Schema, "ammo", num(30))
	p, err = pl.PlanFor(armed, st)
	require.NoError(t, err)
	assert.Empty(t, p.Steps, "a satisfied goal gives an empty plan")
	assert.Empty(t, p.Goals)
}

func TestPlannerWithoutChaining(t *testing.T) {
	d, err := Compile(soldierRole())
	require.NoError(t, err)
	pl := NewPlanner(d)
	pl.Chaining = false
	_, err = pl.Plan(d.NewState())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, Unreachable, pe.Reason, "reload needs a magazine and no helper may be chained")
	assert.Equal(t, "reload", pe.Action)
	assert.Equal(t, "magazines > 0", pe.Precondition)

	st := d.NewState()
	st.Set(d.Schema, "magazines", num(1))
	p, err := pl.Plan(st)
	require.NoError(t, err)
	assert.Equal(t, []string{"reload"}, p.Names())
}

func TestPlannerDepthLimits(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "T", State: []Var{{"wood", num(0)}},
		Goals: []GoalSpec{NewGoal("g", "wood >= 300", Normal)}, Actions: []ActionSpec{NewAction("Chop").Effects("wood = wood + 1").Spec()}})
	require.NoError(t, err)
	tests := []struct {
		name   string
		reason string
		depth  int
		want   int
	}{
		{"default", "0 means 10", 0, DefaultMaxDepth},
		{"negative", "below 1 means 10", -4, DefaultMaxDepth},
		{"clamped", "above 256 is clamped", 1000, MaxMaxDepth},
		{"kept", "in range is kept", 7, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := depthPlanner(d, tc.depth).Plan(d.NewState())
			var pe *PlanError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, MaxDepthExceeded, pe.Reason, tc.reason)
			assert.Equal(t, tc.want, pe.MaxDepth, tc.reason)
			assert.Contains(t, pe.Error(), "maxDepth")
		})
	}
}

func TestPlannerProvablyUnreachable(t *testing.T) {
	// stone only grows, so "stone < 0" can never hold: no search needed.
	_, err := planCase(t, []Var{{"stone", num(0)}}, "stone < 0", NewAction("Mine").Effects("stone = stone + 1").Spec())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, Unreachable, pe.Reason)
	assert.Equal(t, 0, pe.Expansions)
}

func TestPlannerThrowEndsAfterOneExpansion(t *testing.T) {
	p, err := planCase(t, []Var{{"thrown", boolean(false)}}, "thrown",
		NewAction("Throw").Pre("!thrown").Effects("thrown = true").Spec())
	require.NoError(t, err)
	assert.Equal(t, []string{"Throw"}, p.Names())
	assert.Equal(t, 1, p.Expansions, "the root is expanded once; the goal state ends the search")
}

func TestNewPlannerDefaults(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "r",
		Goals: []GoalSpec{NewGoal("armed", "ammo > 10", High)},
		Actions: []ActionSpec{
			NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec(),
			NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		}})
	require.NoError(t, err)
	pl := NewPlanner(d)
	assert.Equal(t, DefaultMaxDepth, pl.MaxDepth)
	assert.True(t, pl.Chaining)
	st := pl.Domain.NewState()
	require.True(t, st.Set(pl.Domain.Schema, "ammo", num(0)))
	require.True(t, st.Set(pl.Domain.Schema, "magazines", num(0)))
	p, err := pl.Plan(st)
	require.NoError(t, err)
	assert.Equal(t, []string{"fetchMagazine", "reload"}, p.Names())
	assert.Nil(t, p.Steps[0].Body, "built without a body: plannable, not executable")
}

func TestCyclicThroughTwoActions(t *testing.T) {
	_, err := planCase(t, []Var{{"p", expr.BoolValue(false)}, {"q", expr.BoolValue(false)}, {"open", expr.BoolValue(false)}}, "open",
		NewAction("A").Pre("p").Effects("open = true").Spec(),
		NewAction("B").Pre("q").Effects("p = true").Spec(),
		NewAction("C").Pre("p").Effects("q = true").Spec())
	var pe *PlanError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, CyclicPrecondition, pe.Reason)
	assert.Equal(t, "A", pe.Action)
	assert.Equal(t, "p", pe.Precondition)
	assert.Equal(t, `"A" needs p, and every action that changes p or q ("B" and "C") needs one of them first, so none of them can go first: `+
		`give p or q a starting value that lets the chain begin, or add an action (or a sensor) that changes one of them without needing any`, pe.Detail)
}

// depthPlanner is NewPlanner with MaxDepth set.
func depthPlanner(d *Domain, depth int) *Planner {
	p := NewPlanner(d)
	p.MaxDepth = depth
	return p
}

// TestCompileRefusesNegativeCosts: a negative cost is refused when the
// domain compiles, so no search sees one.
func TestCompileRefusesNegativeCosts(t *testing.T) {
	for _, c := range []float64{-1, -1e-300} {
		_, err := Compile(RoleSpec{Name: "E", State: []Var{{"v0", expr.NumberValue(0)}}, Goals: []GoalSpec{NewGoal("g", "v0 > 1", High)},
			Actions: []ActionSpec{NewAction("up").Effects("v0 = v0 + 1").Cost(c).Spec()}})
		require.Error(t, err, "cost %v", c)
		assert.Contains(t, err.Error(), "cost")
	}
}

// TestPlanForAGoalOfAnotherDomain: a goal of another domain (as one held
// across a reload) is planned by its own condition, over this domain's
// actions, and not taken for this domain's goal with the same index, whose
// search the planner has cached, nor looked up past this domain's goals.
func TestPlanForAGoalOfAnotherDomain(t *testing.T) {
	state := []Var{{"x", num(0)}, {"y", num(0)}}
	d, err := Compile(RoleSpec{Name: "A", State: state,
		Goals:   []GoalSpec{NewGoal("g", "x >= 1", Normal)},
		Actions: []ActionSpec{NewAction("IncX").Effects("x = x + 1").Spec(), NewAction("IncY").Effects("y = y + 1").Spec()}})
	require.NoError(t, err)
	other, err := Compile(RoleSpec{Name: "B", State: state, Goals: []GoalSpec{NewGoal("h", "y >= 2", Normal), NewGoal("k", "x >= 2", Normal)}})
	require.NoError(t, err)
	p := NewPlanner(d)
	mine, err := p.Plan(d.NewState())
	require.NoError(t, err)
	require.Equal(t, []string{"IncX"}, mine.Names())
	theirs, err := p.PlanFor(other.Goal("h"), d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"IncY", "IncY"}, theirs.Names())
	assert.Equal(t, 2.0, theirs.Cost)
	theirs, err = p.PlanFor(other.Goal("k"), d.NewState())
	require.NoError(t, err, "an index past this domain's goals")
	assert.Equal(t, []string{"IncX", "IncX"}, theirs.Names())
}
