package engine

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
