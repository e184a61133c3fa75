package engine

import "strconv"

func (a *Agent) retryDelay() float64 {
	if a.RetryDelay > 0 {
		return a.RetryDelay
	}
	return defaultRetryDelay
}

const inf = 1e308

// backedOff returns the mask of actions backed off now, or nil when none
// is, for Planner.exclude: plans route around a failing action while it
// cools down.
func (a *Agent) backedOff() []bool {
	var mask []bool
	for i, t := range a.cooldown {
		if t > a.time+1e-9 {
			if mask == nil {
				if cap(a.excl) < len(a.cooldown) {
					a.excl = make([]bool, len(a.cooldown))
				}
				mask = a.excl[:len(a.cooldown)]
				clear(mask)
			}
			mask[i] = true
		}
	}
	return mask
}

func (a *Agent) noteBackoff(steps []*Action) {
	for _, s := range steps {
		if t := a.cooldown[s.Index]; t > a.time && t < a.retryAt {
			a.retryAt = t
		}
	}
}

// brokenPromiseLimit is how many times in a row an action may finish with
// a broken promise (an effect or promised condition its body did not make
// true) before it is backed off as a failed action is: the first one
// replans, and the planner may run the action again (a draft redone), the
// second in a row leaves it out of plans for RetryDelay seconds, and so
// does every later one until it keeps its promise.
const brokenPromiseLimit = 2

// notePromise counts act's broken promises in a row (broken says whether
// this run broke one) and backs act off when the count reaches
// brokenPromiseLimit. It returns what the finish record adds then, else "".
func (a *Agent) notePromise(act *Action, broken bool) string {
	if !broken {
		if act.Index < len(a.broken) {
			a.broken[act.Index] = 0
		}
		return ""
	}
	if len(a.broken) < len(a.Domain.Actions) {
		a.broken = append(a.broken, make([]uint8, len(a.Domain.Actions)-len(a.broken))...)
	}
	if a.broken[act.Index] < 255 {
		a.broken[act.Index]++
	}
	n := a.broken[act.Index]
	if n < brokenPromiseLimit {
		return ""
	}
	a.cooldown[act.Index] = a.time + a.retryDelay()
	return "backed off for " + shortNumber(a.retryDelay()) + " s after " + strconv.Itoa(int(n)) + " broken promises in a row"
}
