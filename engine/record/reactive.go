package record

import "strconv"

// The kinds of record the reactive layer makes (package engine/bdi). They
// are numbered apart from the planners' kinds, from 64 up.
const (
	EventBeliefAdded      EventKind = 64 + iota // a belief was added: Belief, Value, Old; Peer is the agent that told it
	EventBeliefRemoved                          // a belief was removed: Belief, Old
	EventGoalAdded                              // a goal was added: Goal; Intention is the intention that asked for it
	EventGoalFailed                             // a goal failed: Goal, Reason
	EventGoalRemoved                            // a goal was achieved and removed: Goal, Value is the result
	EventPlanChosen                             // a reactive plan was chosen for an event: Action is the plan, Intention the new intention
	EventNoPlan                                 // no plan applied to an event: Reason says why
	EventIntentionStart                         // an intention started: Action is its plan
	EventIntentionSuspend                       // an intention suspended: Reason says on what
	EventIntentionDone                          // an intention completed: Value is its result
	EventIntentionFailed                        // an intention failed: Reason says why
	EventPrint                                  // npc:print: Reason is the line, the agent's name first
	EventTell                                   // the agent told a belief to Peer: Belief, Value
	EventGroupWrite                             // the agent's write of a group variable reached the group's board: Peer is the group, Belief the variable, Value its value
	EventPerceived                              // the perception memory took first news of a thing, or news of one lost: Belief is its source, Value its position, Reason its sense, age and confidence
	EventLost                                   // a remembered thing went out of perception: as EventPerceived
	EventForgotten                              // a remembered thing was forgotten: as EventPerceived
	maxEventKind
)

var reactiveEventNames = [...]string{"belief-added", "belief-removed", "goal-added", "goal-failed", "goal-removed",
	"plan-chosen", "no-plan", "intention-start", "intention-suspend", "intention-done", "intention-failed", "print", "tell", "group-write",
	"perceived", "lost", "forgotten"}

func reactiveKindName(k EventKind) (string, bool) {
	if k >= EventBeliefAdded && int(k-EventBeliefAdded) < len(reactiveEventNames) {
		return reactiveEventNames[k-EventBeliefAdded], true
	}
	return "", false
}

// reactiveString writes the fields the reactive records use.
func (e Event) reactiveString(b *[]byte) {
	add := func(k, v string) {
		if v != "" {
			*b = append(*b, ' ')
			*b = append(*b, k...)
			*b = append(*b, '=')
			*b = append(*b, lineText(v)...)
		}
	}
	if e.Intention != 0 {
		add("intention", "#"+strconv.Itoa(e.Intention))
	}
	add("belief", e.Belief)
	add("value", e.Value)
	add("old", e.Old)
	switch e.Kind {
	case EventTell:
		add("to", e.Peer)
	case EventGroupWrite:
		add("group", e.Peer)
	default:
		add("from", e.Peer)
	}
}

// The planners' kinds must stay below the reactive ones.
const _ = uint(EventBeliefAdded - numEventKinds)

// ParseEventKind returns the kind whose String is name, of the planners or
// of the reactive layer, and whether there is one.
func ParseEventKind(name string) (EventKind, bool) {
	for k := EventKind(1); k < maxEventKind; k++ {
		if s := k.String(); s == name && s != "event" {
			return k, true
		}
	}
	return 0, false
}
