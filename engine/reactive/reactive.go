// Package reactive holds what an agent's reactive layer (a plan library,
// package engine/bdi) receives from the engine: the changes of the agent's
// beliefs (BeliefChange) and the goals asked of it (Goal). The engine
// knows the layer only through the engine.Reactive interface, whose
// methods take these values.
package reactive

import (
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// BeliefChange is one change of a state variable seen by the agent.
// Removed is true when the variable lost its value (it became Unknown or
// nil); otherwise it got a new value (from no value, or a different one).
// From names the agent that told it, or is empty.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type BeliefChange struct {
	Slot     int
	Name     string
	Old, New expr.Value
	Removed  bool
	From     string
}

// Goal is a goal of the reactive layer: a name such as "prepare", or
// a tuple such as {"start", 1, 5} (a Lua table of strings, numbers and
// booleans). Two goals are equal when both are names and the names are
// equal, or both are tuples with equal elements. The zero Goal is the
// empty name. Safe to copy; do not modify Terms of a goal in use.
type Goal struct {
	Terms []expr.Value
	Tuple bool
}

// GoalNamed returns the goal with that name.
func GoalNamed(name string) Goal { return Goal{Terms: []expr.Value{expr.StringValue(name)}} }

// GoalTuple returns the tuple goal with those elements.
func GoalTuple(terms ...expr.Value) Goal { return Goal{Terms: terms, Tuple: true} }

// Name returns the goal's name: the name of a named goal, or the first
// element of a tuple when it is a string; "" otherwise.
func (g Goal) Name() string {
	if len(g.Terms) == 0 {
		return ""
	}
	s, _ := g.Terms[0].AsString()
	return s
}

// Equal reports whether two goals are equal (see Goal).
func (g Goal) Equal(o Goal) bool {
	if g.Tuple != o.Tuple || len(g.Terms) != len(o.Terms) {
		return false
	}
	for i := range g.Terms {
		if !g.Terms[i].Equal(o.Terms[i]) {
			return false
		}
	}
	return true
}

// String formats a named goal as its name and a tuple as
// {"start", 1, 5}, numbers in ShortNumber form, for messages and records.
func (g Goal) String() string {
	if !g.Tuple {
		return g.Name()
	}
	parts := make([]string, len(g.Terms))
	for i, t := range g.Terms {
		parts[i] = short(t)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// short is Value.String with numbers in expr.ShortNumber form.
func short(v expr.Value) string {
	if n, ok := v.AsNumber(); ok {
		return expr.ShortNumber(n)
	}
	return v.String()
}
