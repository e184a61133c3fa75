package engine

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
)

// Var is a named state variable with its initial value.
type Var struct {
	Name  string
	Value Value
}

// RoleSpec declares a role: a named bundle of state, goals and actions.
// Declaration order is kept everywhere.
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
	// none of their own; empty means the seed's defaults. A later role's
	// list replaces an earlier one's.
	Considerations []ConsiderationSpec
	UtilityMode    string // "average" (default) or "multiply"; see UtilityPlanner
}

// Domain is one or more compiled roles: the schema of their merged state,
// their goals and their actions. A Domain is read-only after Compile and
// is shared by every agent that carries those roles; it is safe for
// concurrent use.
type Domain struct {
	Name    string // the role names joined with "+"
	Schema  *Schema
	Initial State     // the merged initial state; clone it, do not modify it
	Goals   []*Goal   // declaration order
	ByPrio  []*Goal   // highest priority first, declaration order among equals
	Actions []*Action // declaration order
	Sensors []*Sensor
	// Conditions are the named conditions, each with its boolean slot.
	Conditions []*NamedCondition
	Decide     string
	// Considerations are the compiled RoleSpec.Considerations (nil when
	// the roles declare none); UtilityMode is "average" or "multiply".
	Considerations []Consideration
	UtilityMode    string

	goalIndex   map[string]*Goal
	actionIndex map[string]*Action
	// planners lends search buffers to agents while they plan, so memory
	// grows with the number of goroutines planning, not with the agents.
	planners sync.Pool
}

// Goal returns the goal with that name, or nil.
func (d *Domain) Goal(name string) *Goal { return d.goalIndex[name] }

// Action returns the action with that name, or nil.
func (d *Domain) Action(name string) *Action { return d.actionIndex[name] }

// NewState returns a copy of the initial state.
func (d *Domain) NewState() State { return d.Initial.Clone() }

// Problem is one thing wrong in a role, at a place.
type Problem struct {
	Pos Pos
	Msg string
	Err error // the underlying error, such as a *ParseError, when there is one
}

func (p Problem) String() string {
	if s := p.Pos.String(); s != "" {
		return s + ": " + p.Msg
	}
	return p.Msg
}

// CompileError lists every problem found while compiling roles, each on its
// own line as "file:line:col: message".
type CompileError struct{ Problems []Problem }

func (e *CompileError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Compile merges roles into one Domain. A later role's state variable,
// goal or action with the same name as an earlier role's replaces it in
// place. Every problem is reported at once in a *CompileError: a condition
// or effect that does not parse, a fulfills naming no goal, a duplicate
// name within one role, a negative or non-finite cost, an unknown decide
// mode.
func Compile(roles ...RoleSpec) (*Domain, error) {
	c := &compiler{d: &Domain{Schema: NewSchema(), goalIndex: map[string]*Goal{}, actionIndex: map[string]*Action{}}}
	return c.compile(roles)
}

type compiler struct {
	d        *Domain
	problems []Problem
}

func (c *compiler) add(pos Pos, msg string, err error) {
	c.problems = append(c.problems, Problem{Pos: pos, Msg: msg, Err: err})
}

// at shifts a field position by a parse error's column, when both are known.
func at(field, decl Pos, err error) Pos {
	var pe *ParseError
	if field.Line > 0 && errors.As(err, &pe) {
		p := field
		p.Col += pe.Col - 1
		return p
	}
	if field.Line > 0 {
		return field
	}
	return decl
}

func (c *compiler) compile(roles []RoleSpec) (*Domain, error) {
	d := c.d
	var names []string
	var initial []Value
	var goals []GoalSpec
	var actions []ActionSpec
	var sensors []SensorSpec
	var conds []ConditionSpec
	var utilMode string
	var roleCons []ConsiderationSpec
	for _, r := range roles {
		names = append(names, r.Name)
		if r.Decide != "" {
			d.Decide = r.Decide
		}
		if r.UtilityMode != "" {
			utilMode = r.UtilityMode
		}
		if r.Considerations != nil {
			roleCons = r.Considerations
		}
		for _, v := range r.State {
			slot := d.Schema.Intern(v.Name)
			for len(initial) <= slot {
				initial = append(initial, Value{})
			}
			initial[slot] = v.Value
		}
		goals = merge(c, goals, r.Goals, "goal", func(g GoalSpec) (string, Pos) { return g.Name, g.Pos })
		sensors = merge(c, sensors, r.Sensors, "sensor", func(x SensorSpec) (string, Pos) { return x.Name, x.Pos })
		conds = merge(c, conds, r.Conditions, "condition", func(x ConditionSpec) (string, Pos) { return x.Name, x.Pos })
		actions = merge(c, actions, r.Actions, "action", func(a ActionSpec) (string, Pos) { return a.Name, a.Pos })
	}
	d.Name = strings.Join(names, "+")
	var stateNames []string
	for _, r := range roles {
		for _, v := range r.State {
			stateNames = append(stateNames, v.Name)
		}
	}
	goals, actions = c.compileTyped(stateNames, goals, actions, conds)
	switch d.Decide {
	case "", "goap", "utility", "hybrid":
		if d.Decide == "" {
			d.Decide = "goap"
		}
	default:
		c.add(Pos{}, "decide must be \"goap\", \"utility\" or \"hybrid\", not \""+d.Decide+"\"", nil)
	}

	for i, sn := range sensors {
		if sn.Run == nil {
			c.add(sn.Pos, "sensor \""+sn.Name+"\" has no function", nil)
		}
		if sn.Every < 0 || math.IsNaN(sn.Every) || math.IsInf(sn.Every, 0) {
			c.add(sn.Pos, "sensor \""+sn.Name+"\" period must be a finite number of seconds >= 0", nil)
		}
		d.Sensors = append(d.Sensors, &Sensor{Name: sn.Name, Index: i, Every: sn.Every, Run: sn.Run, Pos: sn.Pos})
	}
	for _, nc := range conds {
		if nc.Test == nil {
			c.add(nc.Pos, "condition \""+nc.Name+"\" has no function", nil)
		}
		slot := d.Schema.Intern(nc.Name)
		d.Conditions = append(d.Conditions, &NamedCondition{Name: nc.Name, Slot: slot, Test: nc.Test, Pos: nc.Pos})
	}

	// Parse every effect first and intern its targets, so a word naming a
	// variable that only an effect assigns reads that variable.
	syntax := make([]*EffectSyntax, len(actions))
	for i, a := range actions {
		es, err := ParseEffect(a.Effects)
		if err != nil {
			c.add(at(a.EffectsAt, a.Pos, err), "action \""+a.Name+"\" effects: "+parseMsg(err), err)
			continue
		}
		syntax[i] = es
		for _, t := range es.Targets() {
			d.Schema.Intern(t)
		}
	}
	for i, gs := range goals {
		if gs.Name == "" {
			c.add(gs.Pos, "a goal has no name", nil)
		}
		cond, err := CompileCondition(gs.Condition, d.Schema)
		if err != nil {
			c.add(at(gs.ConditionAt, gs.Pos, err), "goal \""+gs.Name+"\" condition: "+parseMsg(err), err)
		}
		prio := gs.Priority
		if prio == 0 {
			prio = Normal
		}
		g := &Goal{Name: gs.Name, Index: i, Priority: prio, Condition: cond, Description: gs.Description,
			Persistent: gs.Persistent, Deadline: gs.Deadline, Pos: gs.Pos}
		d.Goals = append(d.Goals, g)
		d.goalIndex[g.Name] = g
	}
	for i, as := range actions {
		if as.Name == "" {
			c.add(as.Pos, "an action has no name", nil)
		}
		pre, err := CompileCondition(as.Pre, d.Schema)
		if err != nil {
			c.add(at(as.PreAt, as.Pos, err), "action \""+as.Name+"\" pre: "+parseMsg(err), err)
		}
		var eff *Effect
		if syntax[i] != nil {
			eff, err = syntax[i].Compile(d.Schema)
			if err != nil {
				c.add(at(as.EffectsAt, as.Pos, err), "action \""+as.Name+"\" effects: "+parseMsg(err), err)
			}
		}
		cost := as.Cost
		if cost == 0 {
			cost = 1
		}
		if cost < 0 || math.IsNaN(cost) || math.IsInf(cost, 0) {
			c.add(as.Pos, "action \""+as.Name+"\" cost must be a finite number > 0, not "+FormatNumber(cost), nil)
			cost = 1
		}
		u := as.Utility.withDefaults()
		a := &Action{Name: as.Name, Index: i, Pre: pre, Effects: eff, Cost: cost, Utility: u,
			Restricted: as.Restricted, Authority: as.Authority, Body: as.Body, Pos: as.Pos}
		for _, f := range as.Fulfills {
			g := d.goalIndex[f]
			if g == nil {
				at := as.Pos
				if as.FulfillsAt.Line > 0 {
					at = as.FulfillsAt
				}
				c.add(at, "action \""+as.Name+"\" fulfills \""+f+"\", which is no goal"+DidYouMean(f, d.GoalNames()), nil)
				continue
			}
			a.Fulfills = append(a.Fulfills, g)
		}
		a.Inputs, a.Output, a.AchievesGoal, a.NoRerun = as.Inputs, as.Output, as.AchievesGoal, as.NoRerun
		for _, name := range as.Post {
			for _, nc := range d.Conditions {
				if nc.Name == name {
					a.Post = append(a.Post, nc)
				}
			}
		}
		d.Actions = append(d.Actions, a)
		d.actionIndex[a.Name] = a
	}
	c.compileUtility(utilMode, roleCons, actions)
	if len(c.problems) > 0 {
		return nil, &CompileError{Problems: c.problems}
	}
	for len(initial) < d.Schema.Len() {
		initial = append(initial, Value{})
	}
	for _, t := range d.Types() {
		// A type is false until an action produces it or state sets it.
		if s, ok := d.Schema.Lookup(t); ok && !initial[s].IsKnown() {
			initial[s] = BoolValue(false)
		}
	}
	d.Initial = State(initial)
	d.ByPrio = sortedByPriority(d.Goals)
	return d, nil
}

func parseMsg(err error) string {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.Message() + " in \"" + pe.Excerpt() + "\""
	}
	return messageOf(err)
}

// merge adds one role's entries to the merged list: an entry whose name an
// earlier role used replaces it in place; a name used twice in the same
// role is a problem.
func merge[T any](c *compiler, merged, role []T, kind string, key func(T) (string, Pos)) []T {
	seen := map[string]bool{}
	for _, x := range role {
		name, pos := key(x)
		if seen[name] {
			c.add(pos, kind+" \""+name+"\" is declared twice", nil)
			continue
		}
		seen[name] = true
		replaced := false
		for i := range merged {
			if n, _ := key(merged[i]); n == name {
				merged[i], replaced = x, true
				break
			}
		}
		if !replaced {
			merged = append(merged, x)
		}
	}
	return merged
}

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

func sortedByPriority(goals []*Goal) []*Goal {
	out := slices.Clone(goals)
	// Highest first; stable, so equal priorities keep declaration order.
	slices.SortStableFunc(out, func(a, b *Goal) int { return cmp.Compare(b.Priority, a.Priority) })
	return out
}

// closestName returns the closest of names within two edits of name
// (ignoring case), or "".
func closestName(name string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// DidYouMean is the suffix every "unknown name" message of the engine, the
// Lua loader and the command line ends with: ` (did you mean "x"?)` for the
// closest of names within two edits of name, ignoring case, or "" when none
// is that close. It is the one did-you-mean helper of the project; take
// the names from the domain (Domain.GoalNames, Domain.ActionNames,
// Schema.Names).
func DidYouMean(name string, names []string) string {
	if s := closestName(name, names); s != "" {
		return " (did you mean \"" + s + "\"?)"
	}
	return ""
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// borrowPlanner lends a planner over d with the given limits; give it back
// with returnPlanner once its *Plan is no longer read.
func (d *Domain) borrowPlanner(limits *Planner) *Planner {
	p, ok := d.planners.Get().(*Planner)
	if !ok {
		p = NewPlanner(d)
	}
	p.MaxDepth, p.Budget, p.Chaining, p.Exclude = limits.MaxDepth, limits.Budget, limits.Chaining, limits.Exclude
	p.Policy = limits.Policy
	return p
}

func (d *Domain) returnPlanner(p *Planner) { p.Exclude, p.Policy = nil, nil; d.planners.Put(p) }

// namedConditionNote explains, for an error, that a condition reads named
// conditions: values computed by the game that no plan can change.
func (d *Domain) namedConditionNote(c *Condition) string {
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
	return " (" + strings.Join(names, ", ") + " is a named condition, computed by the game each tick: no action's effects can change it, so a goal on it is reached only when the world makes it true; to plan towards it, write the goal on state variables that actions assign)"
}

// Undeclared lists the variables that conditions and effects read but that
// no role declares: not in any state, assigned by no effect, not a named
// condition. Such a variable is always Unknown, so every condition reading
// it fails: almost always a typo. Compile accepts them (the seed's
// unknown-variable rule covers them); the Lua loader reports them as
// errors.
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
