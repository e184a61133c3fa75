package bdi

// Pending is something a body waits for: a sub-goal (Mind.Await) or an
// event (Mind.WaitEvent). A body polls it when resumed; an intention that
// waits for it is resumed in the same tick it is done. Not safe for
// concurrent use.
type Pending struct {
	m        *Mind
	owner    *Intention
	done     bool
	result   any
	err      error
	event    *Event
	timedOut bool
	match    func(*Event) (bool, error)
	deadline float64
}

// Done reports whether the wait is over.
func (p *Pending) Done() bool { return p.done }

// Result returns the result of the body that completed the sub-goal, or
// why it failed (also a failed event filter).
func (p *Pending) Result() (any, error) { return p.result, p.err }

// Event returns the event that ended an event wait, or ok false when it
// timed out (or failed: see Result).
func (p *Pending) Event() (ev Event, ok bool) {
	if p.event == nil {
		return Event{}, false
	}
	return *p.event, true
}

// TimedOut reports whether an event wait ended by its timeout.
func (p *Pending) TimedOut() bool { return p.timedOut }

// Cancel gives up the wait (its body ended): it is done, and nobody is
// woken when the sub-goal completes.
func (p *Pending) Cancel() {
	p.owner = nil
	p.done = true
}

func (p *Pending) finish(res any, err error, ev *Event, timedOut bool) {
	if p.done {
		return
	}
	p.done, p.result, p.err, p.event, p.timedOut = true, res, err, ev, timedOut
	p.m.wake(p.owner)
}
