package engine

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/perception"
)

// This file compiles RoleSpecs into a Domain, in named phases (see
// compiler.compile).

// Problem is one thing wrong in a role, at a place.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
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
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
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
// name within one role, a state variable named and, or or not (operators
// in conditions), a negative or non-finite cost, an unknown decide
// mode; with them, when every effect compiled, the reads of variables
// nothing provides (Domain.Undeclared), which a Domain that compiles
// leaves to the caller.
func Compile(roles ...RoleSpec) (*Domain, error) {
	c := &compiler{d: &Domain{Schema: expr.NewSchema(), goalIndex: map[string]*Goal{}, actionIndex: map[string]*Action{}}}
	c.d.Schema.AddFamily(perception.Family())
	return c.compile(roles)
}

type compiler struct {
	d        *Domain
	problems []Problem
	// effectsFailed is set when an action's effects did not parse or
	// compile (see undeclaredToo).
	effectsFailed bool
}

func (c *compiler) add(pos Pos, msg string, err error) {
	c.problems = append(c.problems, Problem{Pos: pos, Msg: msg, Err: err})
}

// at shifts a field position by a parse error's column, when both are known.
func at(field, decl Pos, err error) Pos {
	var pe *expr.ParseError
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

// compile runs the phases in order. Each phase reports its problems and
// goes on, so one run reports everything wrong at once; the Domain is
// returned only when no phase found a problem.
func (c *compiler) compile(roles []RoleSpec) (*Domain, error) {
	m := c.mergeRoles(roles)
	m.goals, m.actions = c.compileTyped(stateNames(roles), m.goals, m.actions, m.conds)
	c.checkDecide()
	c.checkThinkRates()
	c.checkMemory()
	c.compileSensors(m.sensors)
	c.compileNamedConditions(m.conds)
	syntax := c.parseEffects(m.actions)
	c.compileGoals(m.goals)
	c.compileActions(m.actions, syntax)
	c.compileUtility(m.utilMode, m.roleCons, m.actions)
	c.bindMemory()
	if len(c.problems) > 0 {
		c.undeclaredToo(m.initial)
		return nil, &CompileError{Problems: c.problems}
	}
	c.finish(m.initial)
	return c.d, nil
}

// undeclaredToo adds, to a compile that found problems, the reads of
// variables nothing provides that Domain.Undeclared would list once the
// rest is fixed, so that one run reports them with the rest; not when an
// effect failed to compile, as the variables it writes are not known then
// (what it would provide could be reported as provided by nothing).
func (c *compiler) undeclaredToo(initial []expr.Value) {
	if c.effectsFailed {
		return
	}
	c.finish(slices.Clone(initial))
	c.problems = append(c.problems, c.d.Undeclared()...)
}

// merged is the roles merged into one list of each kind of declaration:
// a later role's entry with the same name replaces an earlier one's in
// place.
type merged struct {
	initial  []expr.Value // by slot
	goals    []GoalSpec
	actions  []ActionSpec
	sensors  []SensorSpec
	conds    []ConditionSpec
	utilMode string
	roleCons []ConsiderationSpec
}

// mergeRoles merges the roles' declarations, interns the declared state
// variables in order and sets the domain's name and decide mode (the last
// role that sets one wins).
func (c *compiler) mergeRoles(roles []RoleSpec) merged {
	d := c.d
	var m merged
	var names []string
	for _, r := range roles {
		names = append(names, r.Name)
		if r.Decide != "" {
			d.Decide = r.Decide
		}
		if r.UtilityMode != "" {
			m.utilMode = r.UtilityMode
		}
		if r.Considerations != nil {
			m.roleCons = r.Considerations
		}
		if r.ThinkRates != nil {
			d.ThinkRates = slices.Clone(r.ThinkRates)
		}
		if r.Memory.HalfLife != 0 {
			d.Memory.HalfLife = r.Memory.HalfLife
		}
		if r.Memory.Forget != 0 {
			d.Memory.Forget = r.Memory.Forget
		}
		if r.Memory.Capacity != 0 {
			d.Memory.Capacity = r.Memory.Capacity
		}
		if r.Memory.LoseAfter != 0 {
			d.Memory.LoseAfter = r.Memory.LoseAfter
		}
		d.Memory.Notify = d.Memory.Notify || r.Memory.Notify
		for _, v := range r.State {
			if expr.IsOperatorWord(v.Name) {
				c.add(Pos{File: r.File}, fmt.Sprintf("state variable %q: %s is an operator in conditions (as in Lua), so no condition could read it; rename the variable", v.Name, v.Name), nil)
			}
			if strings.HasPrefix(v.Name, perception.Prefix) {
				c.add(Pos{File: r.File}, fmt.Sprintf("state variable %q: names that begin with %q read the perception memory (memory.<source>.<field>); rename the variable", v.Name, perception.Prefix), nil)
			}
			slot := d.Schema.Intern(v.Name)
			for len(m.initial) <= slot {
				m.initial = append(m.initial, expr.Value{})
			}
			m.initial[slot] = v.Value
		}
		m.goals = merge(c, m.goals, r.Goals, "goal", func(g GoalSpec) (string, Pos) { return g.Name, g.Pos })
		m.sensors = merge(c, m.sensors, r.Sensors, "sensor", func(x SensorSpec) (string, Pos) { return x.Name, x.Pos })
		m.conds = merge(c, m.conds, r.Conditions, "condition", func(x ConditionSpec) (string, Pos) { return x.Name, x.Pos })
		m.actions = merge(c, m.actions, r.Actions, "action", func(a ActionSpec) (string, Pos) { return a.Name, a.Pos })
	}
	d.Name = strings.Join(names, "+")
	return m
}

// checkDecide checks the decide mode; empty means "goap".
func (c *compiler) checkDecide() {
	d := c.d
	switch d.Decide {
	case "", "goap", "utility", "hybrid":
		if d.Decide == "" {
			d.Decide = "goap"
		}
	default:
		c.add(Pos{}, "decide must be \"goap\", \"utility\" or \"hybrid\", not \""+d.Decide+"\"", nil)
	}
}

// checkThinkRates checks the think rates of the levels of detail: each a
// positive finite number of thinks per second.
func (c *compiler) checkThinkRates() {
	for i, r := range c.d.ThinkRates {
		if !(r > 0) || math.IsInf(r, 0) {
			c.add(Pos{}, "think rate "+strconv.Itoa(i+1)+" must be a positive finite number of thinks per second, not "+strconv.FormatFloat(r, 'g', -1, 64), nil)
		}
	}
}

// checkMemory checks the perception memory's settings: a half-life that
// is a positive number of seconds (+Inf: no decay), a threshold below 1,
// a capacity that is not negative (zeros are the defaults).
func (c *compiler) checkMemory() {
	m := c.d.Memory
	if m.HalfLife < 0 || math.IsNaN(m.HalfLife) {
		c.add(Pos{}, "memory half-life must be a positive number of seconds, not "+strconv.FormatFloat(m.HalfLife, 'g', -1, 64), nil)
	}
	if !(m.Forget < 1) {
		c.add(Pos{}, "memory forget threshold must be a confidence below 1, not "+strconv.FormatFloat(m.Forget, 'g', -1, 64), nil)
	}
	if m.Capacity < 0 {
		c.add(Pos{}, "memory capacity must not be negative, not "+strconv.Itoa(m.Capacity), nil)
	}
	if math.IsNaN(m.LoseAfter) {
		c.add(Pos{}, "memory lose_after must be a number of seconds, not NaN", nil)
	}
}

// compileSensors checks each sensor's function and period.
func (c *compiler) compileSensors(sensors []SensorSpec) {
	for i, sn := range sensors {
		if sn.Run == nil {
			c.add(sn.Pos, "sensor \""+sn.Name+"\" has no function", nil)
		}
		if sn.Every < 0 || math.IsNaN(sn.Every) || math.IsInf(sn.Every, 0) {
			c.add(sn.Pos, "sensor \""+sn.Name+"\" period must be a finite number of seconds >= 0", nil)
		}
		c.d.Sensors = append(c.d.Sensors, &Sensor{Name: sn.Name, Index: i, Every: sn.Every, Run: sn.Run, Pos: sn.Pos})
	}
}

// compileNamedConditions gives each named condition its boolean slot.
func (c *compiler) compileNamedConditions(conds []ConditionSpec) {
	for _, nc := range conds {
		if nc.Test == nil {
			c.add(nc.Pos, "condition \""+nc.Name+"\" has no function", nil)
		}
		slot := c.d.Schema.Intern(nc.Name)
		c.d.Conditions = append(c.d.Conditions, &NamedCondition{Name: nc.Name, Slot: slot, Test: nc.Test, Pos: nc.Pos})
	}
}

// parseEffects parses every effect and interns its targets before any
// condition or effect binds its words, so a word naming a variable that
// only some effect assigns reads that variable. The result is by action;
// nil where the effect does not parse.
func (c *compiler) parseEffects(actions []ActionSpec) []*expr.EffectSyntax {
	syntax := make([]*expr.EffectSyntax, len(actions))
	for i, a := range actions {
		es, err := expr.ParseEffect(a.Effects)
		if err != nil {
			c.add(at(a.EffectsAt, a.Pos, err), "action \""+a.Name+"\" effects: "+parseMsg(err), err)
			c.effectsFailed = true
			continue
		}
		syntax[i] = es
		for _, t := range es.Targets() {
			c.d.Schema.Intern(t)
		}
	}
	return syntax
}

// compileGoals compiles the goal conditions; a goal without a priority is
// Normal.
func (c *compiler) compileGoals(goals []GoalSpec) {
	d := c.d
	for i, gs := range goals {
		if gs.Name == "" {
			c.add(gs.Pos, "a goal has no name", nil)
		} else if msg := controlInName(gs.Name); msg != "" {
			c.add(gs.Pos, "goal "+strconv.Quote(gs.Name)+": "+msg, nil)
		}
		cond, err := expr.CompileCondition(gs.Condition, d.Schema)
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
}

// compileActions compiles each action's precondition and effects, checks
// its cost (zero means 1) and resolves its fulfills against the goals.
func (c *compiler) compileActions(actions []ActionSpec, syntax []*expr.EffectSyntax) {
	d := c.d
	for i, as := range actions {
		if as.Name == "" {
			c.add(as.Pos, "an action has no name", nil)
		} else if msg := controlInName(as.Name); msg != "" {
			c.add(as.Pos, "action "+strconv.Quote(as.Name)+": "+msg, nil)
		}
		pre, err := expr.CompileCondition(as.Pre, d.Schema)
		if err != nil {
			c.add(at(as.PreAt, as.Pos, err), "action \""+as.Name+"\" pre: "+parseMsg(err), err)
		}
		var eff *expr.Effect
		if syntax[i] != nil {
			eff, err = syntax[i].Compile(d.Schema)
			if err != nil {
				c.add(at(as.EffectsAt, as.Pos, err), "action \""+as.Name+"\" effects: "+parseMsg(err), err)
				c.effectsFailed = true
			}
		}
		cost := as.Cost
		if cost == 0 {
			cost = 1
		}
		if cost < 0 || math.IsNaN(cost) || math.IsInf(cost, 0) {
			c.add(as.Pos, "action \""+as.Name+"\" cost must be a finite number > 0, not "+expr.FormatNumber(cost), nil)
			cost = 1
		} else if cost > expr.MaxSafeInteger {
			// Lua's math.huge is the largest float64, not infinity: two
			// such steps would make a plan cost +Inf.
			c.add(as.Pos, "action \""+as.Name+"\" cost must be at most 2^53 - 1 = 9007199254740991 (a plan's cost is the sum of its steps'), not "+expr.FormatNumber(cost), nil)
			cost = 1
		}
		a := &Action{Name: as.Name, Index: i, Pre: pre, Effects: eff, Cost: cost, Utility: as.Utility.withDefaults(),
			Restricted: as.Restricted, Authority: as.Authority, Body: as.Body, Pos: as.Pos, Uses: as.Uses}
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
		c.typedContract(a, as)
		d.usesObjects = d.usesObjects || a.Uses != ""
		d.Actions = append(d.Actions, a)
		d.actionIndex[a.Name] = a
	}
}

// finish fills in what needs every phase done: the initial state, with a
// slot for every variable interned on the way, and the goals by priority.
func (c *compiler) finish(initial []expr.Value) {
	d := c.d
	for len(initial) < d.Schema.Len() {
		initial = append(initial, expr.Value{})
	}
	typesStartFalse(d, initial)
	d.Initial = expr.State(initial)
	d.ByPrio = sortedByPriority(d.Goals)
	d.lowered = d.lower()
}

func parseMsg(err error) string {
	var pe *expr.ParseError
	if errors.As(err, &pe) {
		return pe.Message() + " in \"" + pe.Excerpt() + "\""
	}
	return messageOf(err)
}

// merge adds one role's entries to the merged list: an entry whose name an
// earlier role used replaces it in place; a name used twice in the same
// role is a problem. It takes time linear in the number of entries.
func merge[T any](c *compiler, merged, role []T, kind string, key func(T) (string, Pos)) []T {
	at := make(map[string]int, len(merged)+len(role)) // name -> position in merged
	for i := range merged {
		if n, _ := key(merged[i]); !hasKey(at, n) {
			at[n] = i
		}
	}
	seen := make(map[string]bool, len(role))
	for _, x := range role {
		name, pos := key(x)
		if seen[name] {
			c.add(pos, kind+" \""+name+"\" is declared twice", nil)
			continue
		}
		seen[name] = true
		if i, ok := at[name]; ok {
			merged[i] = x
			continue
		}
		at[name] = len(merged)
		merged = append(merged, x)
	}
	return merged
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

func sortedByPriority(goals []*Goal) []*Goal {
	out := slices.Clone(goals)
	// Highest first; stable, so equal priorities keep declaration order.
	slices.SortStableFunc(out, func(a, b *Goal) int { return cmp.Compare(b.Priority, a.Priority) })
	return out
}

// controlInName returns why a goal or action name is refused, or "": a
// control character (a newline, a tab) would break the one-line records
// of traces, plans and the flight recorder that print the name.
func controlInName(name string) string {
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Sprintf("the name holds the control character %U; names are printed on one line in plans and traces", r)
		}
	}
	return ""
}
