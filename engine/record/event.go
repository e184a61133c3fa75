package record

import (
	"fmt"
	"strings"
	"time"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// EventKind says what an Event records.
// Its values are immutable and safe to share between goroutines.
type EventKind uint8

// The kinds of record an agent makes.
const (
	_                    EventKind = iota
	EventPlan                      // a plan was chosen for a goal
	EventPlanFailed                // no plan for a goal; Reason says why
	EventPick                      // the utility planner picked an action; Scores says why
	EventReplan                    // the agent dropped its plan; Reason says why
	EventStart                     // an action started
	EventFinish                    // an action finished; Reason lists promised effects not met
	EventFail                      // an action failed; Reason says why
	EventInterrupt                 // a running action was interrupted; Reason says why
	EventIdle                      // every goal is satisfied
	EventStuck                     // no progress for the agent's StuckAfter seconds (engine.Agent)
	EventRecovered                 // progress again after STUCK
	EventSensorFailed              // a sensor returned an error; Action names it
	EventRefused                   // a plan with a restricted action was refused
	EventSummary                   // the one-line summary on finish or STUCK
	EventConditionFailed           // a named condition returned an error; Action names it
	EventLLMRequest                // a body asked a language model for a plan; Goal is the goal text
	EventLLMAnswer                 // the answer reached the body; Reason holds it (see luabind's llm_plan)
	EventPlanSuspended             // a search ran out of the world's plan budget; Expansions so far, Reason the queue position
	EventPlanResumed               // a suspended search went on (or restarted: Reason says why); Expansions before this tick
	// Records of an adapter's scripts (luabind).
	EventConsiderationFailed // a consideration function failed and scored 0: Action is the action scored, Reason names the consideration, where it is and why
	EventTickBudget          // the agent's scripts spent their budget for this tick: Reason says what was cut and where the work went
	EventLOD                 // the agent's level of detail changed (engine.LOD): Score is its think rate in thinks per second (0: every tick), Reason says its level and rate
	numEventKinds
)

var eventNames = [...]string{"", "plan", "plan-failed", "pick", "replan", "start", "finish", "fail",
	"interrupt", "idle", "stuck", "recovered", "sensor-failed", "refused", "summary", "condition-failed",
	"llm-request", "llm-answer", "plan-suspended", "plan-resumed",
	"consideration-failed", "tick-budget", "lod"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	if name, ok := reactiveKindName(k); ok {
		return name
	}
	return "event"
}

// MarshalText writes the kind's name, so JSON records read "start", not 5.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name, so JSON Lines written by
// WriteJSONLines read back (a recorded run's llm-answer records replay
// it). An unknown name is an error.
func (k *EventKind) UnmarshalText(b []byte) error {
	for i, n := range eventNames {
		if i > 0 && n == string(b) {
			*k = EventKind(i)
			return nil
		}
	}
	for i, n := range reactiveEventNames {
		if n == string(b) {
			*k = EventBeliefAdded + EventKind(i)
			return nil
		}
	}
	return fmt.Errorf("engine: no record kind %q", string(b))
}

// ActionScore is one action's utility score in a pick.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ActionScore struct {
	Action string  `json:"action"`
	Score  float64 `json:"score"`
}

// ConsiderationScore is one consideration of a utility pick record: its
// name, the input it read, its output and its weight (see Consideration).
// Error is the message of a custom function's error, which scored 0.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ConsiderationScore struct {
	Name   string  `json:"name"`
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	Weight float64 `json:"weight"`
	Error  string  `json:"error,omitempty"`
}

// Event is one record of one agent: a planning cycle, a utility pick, a
// replan, an action's start, finish, failure or interruption. Tick and
// Time are the agent's own: its tick count (from 1) and its clock in
// seconds at the start of that tick (engine.Agent.Time). For the agents in the
// world at its first tick they are the world's tick number and time; an
// agent added later counts from its own first tick (tick 1, time 0), so
// engine.World.OnEvent hands on its records in world-tick order under its own
// numbers (TestRemoveAndAddDuringTickWaitForItsEnd). Events are plain values,
// printable as one line (String) or as JSON; together they are the flight
// recorder's records.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Event struct {
	Tick       int           `json:"tick"`
	Time       float64       `json:"time"`
	Agent      string        `json:"agent"`
	Kind       EventKind     `json:"kind"`
	Goal       string        `json:"goal,omitempty"`
	Action     string        `json:"action,omitempty"`
	Plan       []string      `json:"plan,omitempty"`
	Cost       float64       `json:"cost,omitempty"`
	Expansions int           `json:"expansions,omitempty"`
	Score      float64       `json:"score,omitempty"`
	Scores     []ActionScore `json:"scores,omitempty"`
	Reason     string        `json:"reason,omitempty"`
	// Considerations are, for a pick, the picked action's considerations:
	// each one's input, output and weight, as the score used them.
	Considerations []ConsiderationScore `json:"considerations,omitempty"`
	// Duration is the wall time the decision took: the GOAP search or
	// the planner handle's Plan on plan and plan-failed records, the
	// scoring on pick records. Recorded only when the world's Timing is
	// on, since it differs from run to run.
	Duration time.Duration `json:"durationNs,omitempty"`
	// Belief, Value, Old, Peer and Intention are the reactive layer's
	// (package engine/bdi): a belief's name, its new and old values as
	// literals, the agent that told it (or was told), and the intention
	// the record is about (numbered from 1 per agent). On a start record,
	// Peer names the smart object the step claims (engine.Object); on a
	// group-write record, the group.
	Belief    string `json:"belief,omitempty"`
	Value     string `json:"value,omitempty"`
	Old       string `json:"old,omitempty"`
	Peer      string `json:"peer,omitempty"`
	Intention int    `json:"intention,omitempty"`
}

// String formats the event as one line, for `moonmind run`. Control
// characters in names and texts are written as escapes (\n, \x1b), so a
// record is always one line and no text can pass for another record.
func (e Event) String() string {
	if e.Kind == EventPrint {
		return lineText(e.Reason)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tick %4d  t=%7.3fs  %-12s %-11s", e.Tick, e.Time, lineText(e.Agent), e.Kind)
	if e.Goal != "" {
		fmt.Fprintf(&b, " goal=%s", lineText(e.Goal))
	}
	if e.Action != "" {
		fmt.Fprintf(&b, " action=%s", lineText(e.Action))
	}
	if e.Kind == EventPlan {
		fmt.Fprintf(&b, " plan=[%s] cost=%s", lineText(strings.Join(e.Plan, ", ")), expr.ShortNumber(e.Cost))
	}
	if e.Kind == EventPick {
		fmt.Fprintf(&b, " score=%.3f", e.Score)
	}
	if e.Kind == EventStart && e.Peer != "" {
		fmt.Fprintf(&b, " object=%s", lineText(e.Peer))
	}
	if e.Kind == EventPlanSuspended || e.Kind == EventPlanResumed {
		fmt.Fprintf(&b, " expansions=%d", e.Expansions)
	}
	if e.Duration > 0 {
		fmt.Fprintf(&b, " took=%s", e.Duration)
	}
	if e.Kind >= EventBeliefAdded {
		var extra []byte
		e.reactiveString(&extra)
		b.Write(extra)
	}
	if e.Reason != "" {
		if e.Kind == EventSummary {
			b.WriteString(" " + lineText(e.Reason))
		} else {
			fmt.Fprintf(&b, " reason=%q", e.Reason)
		}
	}
	// A record with nothing after its kind (idle) would end in the
	// kind's padding.
	return strings.TrimRight(b.String(), " ")
}
