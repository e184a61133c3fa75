package engine

import (
	"fmt"
	"strings"
)

// EventKind says what an Event records.
type EventKind uint8

// The kinds of decision an agent records.
const (
	_               EventKind = iota
	EventPlan                 // a plan was chosen for a goal
	EventPlanFailed           // no plan for a goal; Reason says why
	EventPick                 // the utility planner picked an action
	EventStart                // an action started
	EventFinish               // an action finished
	EventFail                 // an action failed; Reason says why
	EventInterrupt            // a running action was interrupted
	EventStale                // the next step's precondition no longer held
	EventIdle                 // every goal is satisfied
)

var eventNames = [...]string{"", "plan", "plan-failed", "pick", "start", "finish", "fail", "interrupt", "stale", "idle"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "event"
}

// Event is one decision of one agent, for logs, the flight recorder, the
// demo overlay and tests. Time is the world time in seconds at the start of
// the tick.
type Event struct {
	Tick   int
	Time   float64
	Agent  string
	Kind   EventKind
	Goal   string
	Action string
	Plan   []string
	Cost   float64
	Score  float64
	Reason string
}

// String formats the event as one line, for `moonmind run`.
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tick %4d  t=%7.3fs  %-12s %-11s", e.Tick, e.Time, e.Agent, e.Kind)
	if e.Goal != "" {
		fmt.Fprintf(&b, " goal=%s", e.Goal)
	}
	if e.Action != "" {
		fmt.Fprintf(&b, " action=%s", e.Action)
	}
	if e.Plan != nil {
		fmt.Fprintf(&b, " plan=[%s] cost=%s", strings.Join(e.Plan, ", "), FormatNumber(e.Cost))
	}
	if e.Kind == EventPick {
		fmt.Fprintf(&b, " score=%.3f", e.Score)
	}
	if e.Reason != "" {
		fmt.Fprintf(&b, " reason=%q", e.Reason)
	}
	return b.String()
}
