package bdi

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/engine/reactive"
)

// Kind is the kind of an Event, and the `on` of a Plan. The zero Kind is
// invalid.
// Its values are immutable and safe to share between goroutines.
type Kind uint8

// The event kinds a plan can react to (docs/reactive-plans.md).
const (
	_             Kind = iota
	GoalAdded          // a goal was added (Agent.Achieve, npc:achieve, initial_goals)
	GoalFailed         // a goal failed: no applicable plan, or its intention failed
	GoalRemoved        // a goal was achieved and removed
	BeliefAdded        // a variable got a value it did not have
	BeliefRemoved      // a variable lost its value (forget, or set to nil)
	Perceived          // the perception memory took first news of a thing, or news of one lost
	Lost               // a thing remembered went out of perception (perception.Lost)
	Forgotten          // a thing remembered was forgotten
	numKinds
)

var kindNames = [...]string{"", "goal_added", "goal_failed", "goal_removed", "belief_added", "belief_removed",
	"perceived", "lost", "forgotten"}

// String returns the kind as Lua writes it: "goal_added" and so on.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "invalid"
}

// IsGoal reports whether the kind is a goal event.
func (k Kind) IsGoal() bool { return k == GoalAdded || k == GoalFailed || k == GoalRemoved }

// IsBelief reports whether the kind is a belief event.
func (k Kind) IsBelief() bool { return k == BeliefAdded || k == BeliefRemoved }

// IsPerception reports whether the kind is an event of the perception
// memory (perceived, lost, forgotten).
func (k Kind) IsPerception() bool { return k == Perceived || k == Lost || k == Forgotten }

// kindOfChange is the event kind of a change of the perception memory.
func kindOfChange(c perception.ChangeKind) Kind {
	switch c {
	case perception.Perceived:
		return Perceived
	case perception.Lost:
		return Lost
	}
	return Forgotten
}

// KindNames returns the names ParseKind accepts, in order.
func KindNames() []string { return append([]string(nil), kindNames[1:]...) }

// ParseKind reads a kind's name ("belief_added"); ok is false for any
// other text.
func ParseKind(s string) (k Kind, ok bool) {
	for i, n := range kindNames {
		if i > 0 && n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// Event is one event of an agent: a goal event (Goal; Err on a failure;
// Result, the value that completed it, on a removal), a belief event
// (Slot and Name of the variable, its Value and its Old value; From, the
// agent that told it, when it was told) or a perception event (Name, the
// thing's source, and Thing, the thing as remembered then; Slot -1).
// Events are plain values.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Event struct {
	Kind   Kind
	Goal   reactive.Goal
	Err    error
	Result any
	Slot   int
	Name   string
	Value  expr.Value
	Old    expr.Value
	From   string
	Thing  perception.Remembered
}

// String formats the event for messages and traces: `goal_added prepare`,
// `belief_added bell = true (was false)`.
func (e *Event) String() string {
	if e.Kind.IsGoal() {
		return e.Kind.String() + " " + e.Goal.String()
	}
	s := e.Kind.String() + " " + e.Name
	if e.Kind.IsPerception() {
		r := &e.Thing
		return s + " at (" + expr.ShortNumber(r.X) + ", " + expr.ShortNumber(r.Y) + "), age " + expr.ShortNumber(r.Age) +
			" s, confidence " + expr.ShortNumber(r.Confidence)
	}
	if e.Kind == BeliefAdded {
		s += " = " + shortValue(e.Value)
	}
	if e.Old.IsKnown() {
		s += " (was " + shortValue(e.Old) + ")"
	}
	return s
}

// Describe formats a result or context value for a trace: nil as "",
// numbers (float64 and expr.Value) in expr.ShortNumber form, values
// with a String method by it, Go strings quoted, others as fmt prints
// them.
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		return expr.ShortNumber(x)
	case expr.Value:
		return shortValue(x)
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// shortValue formats v for a record: as Value.String, but a number in
// expr.ShortNumber form (a belief of 48.699999999999996 reads 48.7).
func shortValue(v expr.Value) string {
	if n, ok := v.AsNumber(); ok {
		return expr.ShortNumber(n)
	}
	return v.String()
}
