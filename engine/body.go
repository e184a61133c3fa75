package engine

// Status is the outcome of a tick of a running action. The zero Status is
// invalid, so a forgotten return is caught.
// Its values are immutable and safe to share between goroutines.
type Status uint8

// The statuses a Task reports.
const (
	_ Status = iota
	Running
	Succeeded
	Failed
)

func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Succeeded:
		return "succeeded"
	case Failed:
		return "failed"
	}
	return "invalid"
}

// Body is what runs when an action executes: a Go function, or a Lua
// function run as a coroutine (see package luabind).
// With World.Workers above 1, Start is called for different agents from
// different goroutines at once, so a Body that agents share must be safe for
// concurrent use; it is never called for one agent from two goroutines.
type Body interface {
	// Start begins one run of the action for agent. The error means the
	// run could not start at all (a broken script); the step then fails.
	Start(agent *Agent, action *Action) (Task, error)
}

// Task is one run of an action body. The agent resumes it once per tick
// until it reports Succeeded or Failed. Not safe for concurrent use.
type Task interface {
	// Resume advances the run by one tick of dt seconds. A non-nil error
	// comes with Failed and says why (a script error names file and line).
	Resume(dt float64) (Status, error)
	// Interrupt ends the run early, when the plan it served is no longer
	// valid. The task is not resumed afterwards.
	Interrupt()
}

// InterruptReporter is a Task whose Interrupt can fail, such as a script's
// on_interrupt handler that raises an error or runs past its budget. After
// an interruption the agent records InterruptErr's error, when not nil, as
// a record.EventFail of the interrupted action whose Reason starts with
// "on_interrupt: ".
// Like every Task it is called from one goroutine at a time.
type InterruptReporter interface {
	InterruptErr() error
}

// interruptTask interrupts t and returns the reason of a failed
// interruption, or "".
func interruptTask(t Task) string {
	t.Interrupt()
	if r, ok := t.(InterruptReporter); ok {
		if err := r.InterruptErr(); err != nil {
			return "on_interrupt: " + err.Error()
		}
	}
	return ""
}

// BodyFunc is a Body for an action that completes in one tick: it runs f
// once and reports its status.
// The function is called as a Body's Start: for different agents from
// different goroutines at once when World.Workers is above 1.
type BodyFunc func(agent *Agent, action *Action) (Status, error)

// Start implements Body.
func (f BodyFunc) Start(agent *Agent, action *Action) (Task, error) {
	return &funcTask{f: f, agent: agent, action: action}, nil
}

type funcTask struct {
	f      BodyFunc
	agent  *Agent
	action *Action
}

func (t *funcTask) Resume(float64) (Status, error) { return t.f(t.agent, t.action) }
func (t *funcTask) Interrupt()                     {}

// ApplyEffects is a BodyFunc that makes the action's promised effects true
// in the agent's state in one tick: the simplest executable action.
func ApplyEffects(agent *Agent, action *Action) (Status, error) {
	if err := action.Effects.ApplyInPlace(agent.State); err != nil {
		return Failed, err
	}
	return Succeeded, nil
}
