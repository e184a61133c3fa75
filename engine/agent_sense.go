package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// sense runs the sensors that are due and refreshes named conditions.
func (a *Agent) sense(dt float64) {
	for i, s := range a.Domain.Sensors {
		if a.tick > 1 && a.time < a.sensorNext[i]-1e-9 {
			continue
		}
		// The game time since this sensor's previous run; on its first run
		// (the agent's first tick, or the first after a reload added the
		// sensor: its last run is NaN), the tick's own dt.
		since := a.time - a.sensorLast[i]
		if a.tick == 1 || since != since {
			since = dt
		}
		a.noteSenseErr(i, record.EventSensorFailed, s.Name, s.Run(a, since))
		a.sensorLast[i] = a.time
		a.sensorNext[i] = a.time + s.Every
	}
	a.refreshConditions()
}

// RefreshConditions evaluates the domain's named conditions on the agent's
// state and stores each result in its boolean variable; a condition that
// returns an error leaves its variable Unknown (so conditions reading it do
// not hold). The tick does this every tick; call it yourself to plan from a
// state you set by hand, as `moonmind plan` does.
func (a *Agent) RefreshConditions() { a.refreshConditions() }

func (a *Agent) refreshConditions() {
	for i, c := range a.Domain.Conditions {
		ok, err := c.Test(a)
		a.noteSenseErr(len(a.Domain.Sensors)+i, record.EventConditionFailed, c.Name, err)
		if err != nil {
			a.State[c.Slot] = expr.Value{}
			continue
		}
		a.State[c.Slot] = expr.BoolValue(ok)
	}
}

// noteSenseErr records a sensor's or named condition's error once, not
// every tick: again only when the message changes or after a success.
func (a *Agent) noteSenseErr(i int, kind record.EventKind, name string, err error) {
	if n := len(a.Domain.Sensors) + len(a.Domain.Conditions); len(a.senseErr) < n {
		a.senseErr = make([]string, n)
	}
	if err == nil {
		a.senseErr[i] = ""
		return
	}
	if msg := err.Error(); msg != a.senseErr[i] {
		a.senseErr[i] = msg
		a.emit(record.Event{Kind: kind, Action: name, Reason: msg})
	}
}

// worldChanges returns the slots where the state differs from the state
// after the running body's last resume (post), as bits: what the world,
// not the body, changed. Every bit is set when the states are longer than
// 64 slots or of different lengths; callers then check everything.
func (a *Agent) worldChanges() uint64 {
	st, post := a.State, a.postState()
	if len(st) != len(post) || len(st) > 64 || testHooks.checkEverything {
		return allSlots
	}
	if statesAlike(st, post) {
		return 0
	}
	return changedSlots(st, post)
}

// changedSlots returns the slots where x and y (of equal length, at most
// 64) differ, as bits: where the values are not ==, which compares all
// of a Value (the kind, a number's bits, a string's canonical text). It
// compares bits, not meaning (Value.Equal): 0 and -0 count as changed,
// which only makes a check run that could have been skipped; no change is
// missed.
func changedSlots(x, y expr.State) uint64 {
	var m uint64
	y = y[:len(x)]
	for i := range x {
		if x[i] != y[i] {
			m |= 1 << uint(i)
		}
	}
	return m
}

// statesAlike reports whether x and y (of equal length) are ==, slot for
// slot: changedSlots(x, y) == 0, found without building the mask and
// stopping at the first difference. Most calls find them alike (a
// waiting body, a world that wrote nothing), so worldChanges and notePost
// build the mask only when they are not.
func statesAlike(x, y expr.State) bool {
	y = y[:len(x)]
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// stateMoved reports whether a.State may differ from post: true when
// post does not lie in stateBuf (postN is 0) or State's length is not
// postN, else whether State and post differ in any slot (statesAlike).
// It finds post from postN, without reading post's slice header, which
// lies among the colder fields.
func stateMoved(a *Agent) bool {
	n := int(a.postN)
	return n == 0 || n != len(a.State) || !statesAlike(a.State, a.stateBuf[n:2*n])
}

// allSlots is the mask of worldChanges that says "maybe every slot".
const allSlots = ^uint64(0)

// notePost copies the state into post (the state after the body's last
// resume, or at the start of a step) and notes the slots that changed
// since the last copy for the re-score of a running pick (see
// invalidated). When no slot changed, post is already the state, byte
// for byte, and is not written: a tick of a waiting body then leaves
// post's cache lines clean, so they need not be written back to memory.
//
// It returns the slots that changed since the last copy (every bit when
// that is not known).
func (a *Agent) notePost() uint64 {
	if !stateMoved(a) {
		if !a.picked {
			a.sinceRescore = allSlots
		}
		return 0
	}
	return a.notePostSlow()
}

// notePostSlow is notePost when post lies apart or some slot changed.
func (a *Agent) notePostSlow() uint64 {
	st, post := a.State, a.postState()
	if len(st) != len(post) || len(st) > 64 {
		copy(post, st)
		a.sinceRescore = allSlots
		return allSlots
	}
	var m uint64
	if !statesAlike(st, post) {
		m = changedSlots(st, post)
	}
	if a.picked {
		a.sinceRescore |= m
	} else {
		a.sinceRescore = allSlots
	}
	if m != 0 {
		copy(post, st)
	}
	return m
}
