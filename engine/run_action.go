package engine

// Sentinel errors of RunAction and of executors (package engine/executor), wrapped in an *ActionError; test them
// with errors.Is.
var (
	// ErrRestricted: the action is Restricted, so executors refuse it and
	// any plan containing it.
	ErrRestricted = newError("the action is restricted; executors refuse it")
	// ErrNotExecutable: the action has no Body. It can be planned, not run.
	ErrNotExecutable = newError("the action has no body, so it cannot run")
	// ErrTooManyResumes: the action's task was still running after
	// the resume limit of RunAction; it was interrupted.
	ErrTooManyResumes = newError("the action was still running after the resume limit")
)

// ActionError is an action that RunAction or an executor refused or that failed while
// it ran: Err is ErrRestricted, ErrNotExecutable, ErrTooManyResumes, the
// error of Body.Start or Task.Resume, or an error saying the task reported
// Failed.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type ActionError struct {
	Action string
	Err    error
}

// Message is the error without the package prefix: `action "name": `
// and Err's message (without its own prefix when Err has a Message
// method).
func (e *ActionError) Message() string {
	return "action \"" + e.Action + "\": " + messageOf(e.Err)
}

func (e *ActionError) Error() string { return "engine: " + e.Message() }

// Unwrap returns Err.
func (e *ActionError) Unwrap() error { return e.Err }

// refuse returns why an executor must not run a for an agent with those
// authorities, or nil.
func refuse(a *Action, authorities []string) error {
	switch {
	case a.Secured() && refusal(a, authorities) != "":
		return refusedError(a, authorities)
	case a.Body == nil:
		return &ActionError{Action: a.Name, Err: ErrNotExecutable}
	}
	return nil
}

// Executor defaults: a minute of game time at 60 resumes a second.
const (
	defaultExecutorStep       = 1.0 / 60 // seconds per Task.Resume
	defaultExecutorMaxResumes = 3600
)

// Refusal returns the *ActionError with which an executor must refuse to
// run act for this agent, or nil: ErrRestricted when the agent's
// Authorities do not permit it (Restricted, or an authority the agent
// lacks, named in the error), ErrNotExecutable when it has no Body.
func (a *Agent) Refusal(act *Action) error { return refuse(act, a.Authorities) }

// RunAction runs act's body now, outside the tick, to its end: refused
// first as Refusal says, then Body.Start and Task.Resume(step) until the
// task reports Succeeded or Failed, at most maxResumes times (a task still
// running then is interrupted, and the error wraps ErrTooManyResumes). A
// step or maxResumes of zero or less means 1/60 s and 3,600 (a minute of
// game time). The precondition is not checked and the agent's clock does
// not advance. A failure is an *ActionError. Must not be called while the
// agent ticks.
func (a *Agent) RunAction(act *Action, step float64, maxResumes int) error {
	if err := a.Refusal(act); err != nil {
		return err
	}
	if step <= 0 {
		step = defaultExecutorStep
	}
	if maxResumes <= 0 {
		maxResumes = defaultExecutorMaxResumes
	}
	task, err := act.Body.Start(a, act)
	if err != nil {
		return &ActionError{Action: act.Name, Err: err}
	}
	for i := 0; i < maxResumes; i++ {
		st, err := task.Resume(step)
		switch st {
		case Running:
			continue
		case Succeeded:
			return nil
		}
		if err == nil {
			err = newError("the task reported " + st.String())
		}
		return &ActionError{Action: act.Name, Err: err}
	}
	task.Interrupt()
	return &ActionError{Action: act.Name, Err: ErrTooManyResumes}
}

// refusedError is the *ActionError for a secured action the authorities
// do not permit; it wraps ErrRestricted and, for an action that needs an
// authority, names it.
func refusedError(a *Action, authorities []string) error {
	if a.Restricted || a.Authority == "" {
		return &ActionError{Action: a.Name, Err: ErrRestricted}
	}
	return &ActionError{Action: a.Name, Err: &authorityError{need: a.Authority, granted: authorities}}
}

type authorityError struct {
	need    string
	granted []string
}

// Message is the error without the package prefix.
func (e *authorityError) Message() string {
	return "the action needs authority \"" + e.need + "\"" + grantedNote(e.granted) + "; executors refuse it"
}

func (e *authorityError) Error() string { return "engine: " + e.Message() }

func (e *authorityError) Unwrap() error { return ErrRestricted }
