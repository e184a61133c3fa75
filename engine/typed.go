package engine

import (
	"slices"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Typed inputs and outputs, promised named conditions, rerunnable actions
// and goal-achieving actions: Embabel's planning model (docs/semantics.md),
// compiled onto the condition and effect languages.
//
// A type name (ActionSpec.Inputs, ActionSpec.Output) is a boolean state
// variable that holds when a value of that type is on the agent's
// blackboard (Agent.Fact, Agent.SetFact). It is false until an action
// produces it or the role's state sets it. An action needs all its inputs
// (they are added to its precondition) and produces its output (Output =
// true is added to its effects), so the planner orders actions by them.
// Each name in ActionSpec.Post is a named condition the action promises:
// the planner treats it as true after the action (name = true is added to
// its effects); after the body, the agent evaluates it on the real state
// and records a broken promise on the finish record when it does not hold
// (post is a planning promise, not a runtime gate: it matters only where
// a later action lists it in pre).

// compileTyped rewrites the actions' preconditions and effects for their
// inputs, output and promises, turns achieves_goal into fulfills (adding
// the goal, whose condition is the output type, when the role declares
// none by that name), and reports: a name that is no identifier, a post
// that names no named condition, an input that nothing produces, an
// achieves_goal with neither a declared goal nor an output.
func (c *compiler) compileTyped(state []string, goals []GoalSpec, actions []ActionSpec, conds []ConditionSpec) ([]GoalSpec, []ActionSpec) {
	typed := false
	for _, a := range actions {
		typed = typed || len(a.Inputs) > 0 || a.Output != "" || len(a.Post) > 0 || a.AchievesGoal != ""
	}
	if !typed {
		return goals, actions
	}
	actions = append([]ActionSpec(nil), actions...)
	condNames := make([]string, len(conds))
	for i, nc := range conds {
		condNames[i] = nc.Name
	}
	produced := map[string]bool{}
	for _, s := range state {
		produced[s] = true
	}
	var types []string // what can be produced, for "did you mean"
	types = append(types, state...)
	for _, a := range actions {
		if a.Output != "" {
			produced[a.Output] = true
			types = append(types, a.Output)
		}
	}
	for i := range actions {
		a := &actions[i]
		what := "action \"" + a.Name + "\""
		ok := true
		for _, in := range a.Inputs {
			if !isName(in) {
				c.add(a.Pos, what+" input \""+in+"\" is not a type name (letters, digits and _)", nil)
				ok = false
			} else if !produced[in] {
				c.add(a.Pos, what+" input \""+in+"\": no action's output produces it and no state sets it"+
					DidYouMean(in, types)+" (declare it in state, false, when the game provides it)", nil)
			}
		}
		if a.Output != "" && !isName(a.Output) {
			c.add(a.Pos, what+" output \""+a.Output+"\" is not a type name (letters, digits and _)", nil)
			ok = false
		}
		for _, p := range a.Post {
			if !slices.Contains(condNames, p) {
				if strings.Contains(p, "=") {
					// An effect written in the list form of post.
					c.add(a.Pos, what+" post \""+p+"\" is an effect, but a post list names the named conditions the action promises: put the effect in effects", nil)
					continue
				}
				c.add(a.Pos, what+" post \""+p+"\" names no condition"+DidYouMean(p, condNames), nil)
				ok = false
			}
		}
		if g := a.AchievesGoal; g != "" {
			declared := false
			for _, gs := range goals {
				declared = declared || gs.Name == g
			}
			switch {
			case declared:
			case a.Output != "":
				goals = append(goals, GoalSpec{Name: g, Condition: a.Output, Priority: Normal, Pos: a.Pos,
					Description: "achieved by " + a.Name})
			default:
				c.add(a.Pos, what+" achieves_goal \""+g+"\", which is no goal, and the action has no output to make one of", nil)
				continue
			}
			if !slices.Contains(a.Fulfills, g) {
				a.Fulfills = append(append([]string(nil), a.Fulfills...), g)
			}
		}
		if !ok {
			continue
		}
		if len(a.Inputs) > 0 {
			ins := strings.Join(a.Inputs, " && ")
			switch {
			case strings.TrimSpace(a.Pre) == "":
				a.Pre = ins
			case strings.Contains(a.Pre, "||"):
				a.Pre = "(" + a.Pre + ") && " + ins
				if a.PreAt.Col > 1 {
					a.PreAt.Col-- // the parenthesis: parse errors still point into the designer's text
				}
			default:
				a.Pre += " && " + ins
			}
		}
		var adds []string
		if a.Output != "" {
			adds = append(adds, a.Output+" = true")
		}
		for _, p := range a.Post {
			if isName(p) { // anything else is reported (see above), not written into the effects
				adds = append(adds, p+" = true")
			}
		}
		if len(adds) > 0 {
			if strings.TrimSpace(a.Effects) == "" {
				a.Effects = strings.Join(adds, ", ")
			} else {
				a.Effects += ", " + strings.Join(adds, ", ")
			}
		}
	}
	return goals, actions
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		letter := ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z'
		if !letter && (i == 0 || ch < '0' || ch > '9') {
			return false
		}
	}
	switch s {
	case "true", "false", "nil":
		return false
	}
	return true
}

// Types returns the type names of the domain's typed facts (every input
// and output), in order of first use. A new slice.
func (d *Domain) Types() []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range d.Actions {
		for _, t := range append(append([]string(nil), a.inputs...), a.output) {
			if t != "" && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// IsType reports whether name is a type of the domain's typed facts.
func (d *Domain) IsType(name string) bool {
	for _, a := range d.Actions {
		if a.output == name || slices.Contains(a.inputs, name) {
			return true
		}
	}
	return false
}

// Fact returns the agent's blackboard value of a type (any Go value; a
// Lua table in Lua), or nil when none is there.
func (a *Agent) Fact(typ string) any { return a.facts[typ] }

// SetFact puts v on the agent's blackboard as the value of type typ and
// sets the type's boolean state variable to whether a value is there (v
// nil removes it). It reports whether the domain has that type (an input
// or output of some action); for any other name it does nothing. Not safe
// for concurrent use, like the agent.
func (a *Agent) SetFact(typ string, v any) bool {
	if !a.Domain.IsType(typ) {
		return false
	}
	if v == nil {
		delete(a.facts, typ)
	} else {
		if a.facts == nil {
			a.facts = map[string]any{}
		}
		a.facts[typ] = v
	}
	a.Set(typ, expr.BoolValue(v != nil))
	return true
}

// brokenPromises evaluates the named conditions act promised (Post) on
// the real state after its body, and names those that do not hold:
// "broken promise: noDoubleBooking", or "".
func (a *Agent) brokenPromises(act *Action) string {
	if len(act.post) == 0 {
		return ""
	}
	a.refreshConditions()
	var broken []string
	for _, p := range act.post {
		if !a.State[p.Slot].Truthy() {
			broken = append(broken, p.Name)
		}
	}
	if len(broken) == 0 {
		return ""
	}
	return "broken promise: " + strings.Join(broken, ", ")
}

// promised reports whether slot s is a named condition act promises.
func promised(act *Action, s int) bool {
	for _, p := range act.post {
		if p.Slot == s {
			return true
		}
	}
	return false
}

// finishNote is the reason on a finish record: the promised effects not
// met, then the broken promises.
func (a *Agent) finishNote(act *Action) string {
	unmet, broken := a.unmetEffects(act), a.brokenPromises(act)
	switch {
	case unmet == "":
		return broken
	case broken == "":
		return unmet
	}
	return unmet + "; " + broken
}

// noteRan records that a NoRerun action finished while a goal is pursued.
func (a *Agent) noteRan(act *Action) {
	if !act.NoRerun || a.picked || a.goal == nil {
		return
	}
	if len(a.ran) < len(a.Domain.Actions) {
		a.ran = make([]bool, len(a.Domain.Actions))
	}
	a.ran[act.Index] = true
}

// endPursuit forgets which NoRerun actions ran: a new goal is pursued, or
// the old one holds.
func (a *Agent) endPursuit() {
	a.pursuit = nil
	clear(a.ran)
}

// excludeFor returns the mask the planner leaves out when planning g:
// base (the backed-off actions, or nil) plus, while g is the goal being
// pursued, the NoRerun actions that already ran for it.
func (a *Agent) excludeFor(g *Goal, base []bool) []bool {
	if g != a.pursuit || len(a.ran) == 0 {
		return base
	}
	var mask []bool
	for i, r := range a.ran {
		if !r {
			continue
		}
		if mask == nil {
			if cap(a.exclRan) < len(a.Domain.Actions) {
				a.exclRan = make([]bool, len(a.Domain.Actions))
			}
			mask = a.exclRan[:len(a.Domain.Actions)]
			clear(mask)
			copy(mask, base)
		}
		mask[i] = true
	}
	if mask == nil {
		return base
	}
	return mask
}

// ranAlready reports whether act is a NoRerun action that ran in the
// pursuit of g.
func (a *Agent) ranAlready(act *Action, g *Goal) bool {
	return g == a.pursuit && act.Index < len(a.ran) && a.ran[act.Index]
}

// stateNames lists the state variables the roles declare.
func stateNames(roles []RoleSpec) []string {
	var out []string
	for _, r := range roles {
		for _, v := range r.State {
			out = append(out, v.Name)
		}
	}
	return out
}

// typedContract copies the typed contract of as onto a, resolving the
// promised named conditions.
func (c *compiler) typedContract(a *Action, as ActionSpec) {
	a.inputs, a.output, a.achievesGoal, a.NoRerun = as.Inputs, as.Output, as.AchievesGoal, as.NoRerun
	for _, name := range as.Post {
		for _, nc := range c.d.Conditions {
			if nc.Name == name {
				a.post = append(a.post, nc)
			}
		}
	}
}

// typesStartFalse makes every type false in the initial state unless the
// roles' state sets it: a type is false until an action produces it.
func typesStartFalse(d *Domain, initial []expr.Value) {
	for _, t := range d.Types() {
		if s, ok := d.Schema.Lookup(t); ok && !initial[s].IsKnown() {
			initial[s] = expr.BoolValue(false)
		}
	}
}
