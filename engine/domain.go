package engine

import (
	"strings"
	"sync"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/internal/suggest"
)

// Var is a named state variable with its initial value.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Var struct {
	Name  string
	Value expr.Value
}

// RoleSpec declares a role: a named bundle of state, goals and actions.
// Declaration order is kept everywhere.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type RoleSpec struct {
	Name    string
	File    string // the source file, for error messages
	State   []Var
	Goals   []GoalSpec
	Actions []ActionSpec
	// Sensors run each tick at their rates and write state.
	Sensors []SensorSpec
	// Conditions are named predicates usable by name in conditions.
	Conditions []ConditionSpec
	Decide     string // "goap" (default), "utility" or "hybrid"; see Agent
	// Considerations score, in the utility planner, the actions that have
	// none of their own; empty means DefaultConsiderations. A later role's
	// list replaces an earlier one's.
	Considerations []ConsiderationSpec
	UtilityMode    string // "average" (default) or "multiply"; see UtilityPlanner
	// ThinkRates are the role's think rates under a world's level of
	// detail, in thinks per second, for levels 0, 1, 2, ... (see LOD.Rates,
	// which they replace for the role's agents); nil means the world's.
	// A later role's list replaces an earlier one's. Each must be a
	// positive finite number.
	ThinkRates []float64
	// Memory is the settings of the perception memory its agents start
	// with (see perception.Memory); a later role's non-zero settings replace an
	// earlier one's.
	Memory perception.Spec
}

// Domain is one or more compiled roles: the schema of their merged state,
// their goals and their actions. A Domain is read-only after Compile and
// is shared by every agent that carries those roles; it is safe for
// concurrent use.
type Domain struct {
	Name    string // the role names joined with "+"
	Schema  *expr.Schema
	Initial expr.State // the merged initial state; clone it, do not modify it
	Goals   []*Goal    // declaration order
	ByPrio  []*Goal    // highest priority first, declaration order among equals
	Actions []*Action  // declaration order
	Sensors []*Sensor
	// Conditions are the named conditions, each with its boolean slot.
	Conditions []*NamedCondition
	Decide     string
	// Considerations are the compiled RoleSpec.Considerations (nil when
	// the roles declare none); UtilityMode is "average" or "multiply".
	Considerations []Consideration
	UtilityMode    string
	// ThinkRates are the roles' think rates per level of detail
	// (RoleSpec.ThinkRates), or nil for the world's (LOD.Rates).
	ThinkRates []float64
	// Memory is the roles' perception memory settings (RoleSpec.Memory):
	// each agent's Memory starts with them.
	Memory perception.Spec
	// NewReactive, when set, makes the reactive layer of each new agent
	// of the domain (NewAgent and SetDomain call it). A loader sets it
	// after Compile, before the domain is shared (package engine/bdi,
	// through luabind for roles with plans).
	NewReactive func(a *Agent) Reactive
	usesObjects bool // some action has Uses (object.go)
	// Facts, when set, saves and restores the agents' typed facts in
	// snapshots (see FactCodec); nil means JSONFacts{}. A loader sets it
	// after Compile, before the domain is shared (package luabind does,
	// for Lua values).
	Facts FactCodec
	// Scoring, when set, is called with begin true just before an agent's
	// tick scores actions with its utility planner (a pick, or the
	// re-score of a running pick) and with begin false just after, on the
	// goroutine that ticks the agent. Consideration functions are not
	// told their agent; a loader whose functions must know it (luabind
	// charges their work to the agent's per-tick budget and records
	// their failures in its trace) sets it after Compile, before the
	// domain is shared.
	Scoring func(a *Agent, begin bool)
	// SafeNumbers says that only numbers expr.SafeNumber accepts enter
	// the domain's state (as with scripts, whose writes of NaN or of a
	// finite number of magnitude 2^53 or more fail), so Restore refuses a
	// snapshot whose state holds another. A loader sets it after Compile,
	// before the domain is shared (package luabind does).
	SafeNumbers bool

	// lowered is the domain as the search core reads it (see lower).
	lowered *goap.Problem

	goalIndex   map[string]*Goal
	actionIndex map[string]*Action
	memReads    []memRead // the memory variables the domain reads (memory_reads.go)
	// planners lends search buffers to agents while they plan, so memory
	// grows with the number of goroutines planning, not with the agents.
	planners sync.Pool
}

// Goal returns the goal with that name, or nil.
func (d *Domain) Goal(name string) *Goal { return d.goalIndex[name] }

// Action returns the action with that name, or nil.
func (d *Domain) Action(name string) *Action { return d.actionIndex[name] }

// NewState returns a copy of the initial state.
func (d *Domain) NewState() expr.State { return d.Initial.Clone() }

// GoalNames returns the names of the goals in declaration order, for
// messages such as DidYouMean's. The slice is new on every call.
func (d *Domain) GoalNames() []string {
	out := make([]string, len(d.Goals))
	for i, g := range d.Goals {
		out[i] = g.Name
	}
	return out
}

// ActionNames returns the names of the actions in declaration order. The
// slice is new on every call.
func (d *Domain) ActionNames() []string {
	out := make([]string, len(d.Actions))
	for i, a := range d.Actions {
		out[i] = a.Name
	}
	return out
}

// DidYouMean is the suffix every "unknown name" message of the engine, the
// Lua loader and the command line ends with: ` (did you mean "x"?)` for the
// closest of names within two edits of name, ignoring case, or "" when none
// is that close. It is the one did-you-mean helper of the project; take
// the names from the domain (Domain.GoalNames, Domain.ActionNames,
// Schema.Names).
func DidYouMean(name string, names []string) string { return suggest.DidYouMean(name, names) }

// borrowPlanner lends a planner over d with the given limits; give it back
// with returnPlanner once its *Plan is no longer read.
func (d *Domain) borrowPlanner(limits *Planner) *Planner {
	p, ok := d.planners.Get().(*Planner)
	if !ok {
		p = NewPlanner(d)
	}
	p.MaxDepth, p.Budget, p.Chaining, p.exclude = limits.MaxDepth, limits.Budget, limits.Chaining, limits.exclude
	p.Policy, p.objectWhy = limits.Policy, limits.objectWhy
	return p
}

func (d *Domain) returnPlanner(p *Planner) {
	p.exclude, p.Policy, p.objectWhy = nil, nil, nil
	d.planners.Put(p)
}

// namedConditionNote explains, for an error, that a condition reads named
// conditions: values computed by the game that no plan can change.
func (d *Domain) namedConditionNote(c *expr.Condition) string {
	var names []string
	for _, nc := range d.Conditions {
		for _, r := range c.Reads() {
			if r == nc.Slot {
				names = append(names, nc.Name)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	is, it := "is a named condition", "it"
	if len(names) > 1 {
		is, it = "are named conditions", "them"
	}
	return " (" + strings.Join(names, ", ") + " " + is + ", computed by the game each tick: no action's effects can change " + it +
		", so a goal on " + it + " is reached only when the world makes " + it + " true; to plan towards " + it +
		", write the goal on state variables that actions assign)"
}

// Undeclared lists the variables that conditions and effects read but that
// no role declares: not in any state, assigned by no effect, not a named
// condition. Such a variable is always Unknown, so every condition reading
// it fails: almost always a typo. Compile accepts them (the rule for
// Unknown variables covers them, see expr.Condition); the Lua loader
// reports them as errors.
func (d *Domain) Undeclared() []Problem {
	declared := make([]bool, d.Schema.Len())
	for i, v := range d.Initial {
		declared[i] = v.IsKnown()
	}
	for _, a := range d.Actions {
		for _, w := range a.Effects.Writes() {
			declared[w] = true
		}
	}
	for _, nc := range d.Conditions {
		declared[nc.Slot] = true
	}
	for _, r := range d.memReads {
		declared[r.slot] = true // the memory sensor provides it
	}
	var known []string
	for i, ok := range declared {
		if ok {
			known = append(known, d.Schema.Name(i))
		}
	}
	var out []Problem
	check := func(pos Pos, what string, reads []int) {
		for _, r := range reads {
			if !declared[r] {
				name := d.Schema.Name(r)
				out = append(out, Problem{Pos: pos, Msg: what + " reads \"" + name +
					"\", which no state variable, effect or named condition provides" + DidYouMean(name, known)})
			}
		}
	}
	for _, g := range d.Goals {
		check(g.Pos, "goal \""+g.Name+"\" condition", g.Condition.Reads())
	}
	for _, a := range d.Actions {
		check(a.Pos, "action \""+a.Name+"\" pre", a.Pre.Reads())
		check(a.Pos, "action \""+a.Name+"\" effects", a.Effects.Reads())
	}
	return out
}

// lower builds the problem the search core reads from the compiled goals
// and actions: their conditions, effects and costs by index, and the goals
// each action fulfills.
func (d *Domain) lower() *goap.Problem {
	pr := &goap.Problem{Schema: d.Schema, Initial: d.Initial,
		Actions: make([]goap.Action, len(d.Actions)), Goals: make([]*goap.Goal, len(d.Goals))}
	for i, g := range d.Goals {
		pr.Goals[i] = &goap.Goal{Name: g.Name, Index: i, Condition: g.Condition}
	}
	for i, a := range d.Actions {
		la := goap.Action{Name: a.Name, Index: i, Pre: a.Pre, Effects: a.Effects, Cost: a.Cost, NoRerun: a.NoRerun}
		for _, f := range a.Fulfills {
			if f.Index < len(d.Goals) && d.Goals[f.Index] == f {
				la.Fulfills = append(la.Fulfills, pr.Goals[f.Index])
			}
		}
		pr.Actions[i] = la
	}
	return pr
}
