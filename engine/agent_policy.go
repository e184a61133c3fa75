package engine

import "strings"

// currentPolicy returns the agent's policy as its planners read it: the
// agent's Authorities, refreshed each time it decides.
func (a *Agent) currentPolicy() *Policy {
	a.policy.Authorities = a.Authorities
	return &a.policy
}

// noteWait fills in, for a BACKED_OFF error, the seconds until the
// backed-off action may run again; when the action is left out because it
// cannot rerun, the reason becomes CANNOT_RERUN.
func (a *Agent) noteWait(pe *PlanError) {
	if pe.Reason != BackedOff {
		return
	}
	act := a.Domain.Action(pe.Action)
	if act == nil {
		return
	}
	if a.cooldown[act.Index] <= a.time+1e-9 && a.ranAlready(act, a.Domain.Goal(pe.Goal)) {
		pe.Reason = CannotRerun
		pe.Detail = "a plan exists only through action \"" + act.Name + "\", which already ran while this goal is pursued and cannot run again (can_rerun = false)"
		return
	}
	if w := a.cooldown[act.Index] - a.time; w > 0 {
		pe.Wait = w
		pe.Detail += " (" + shortNumber(roundTo(w, 3)) + " s left)"
	}
}

// leftOutNote names the candidate actions of g (see Goal.Candidate) that
// the agent's last plan left out, and why: "left out: Rob (action "Rob"
// is restricted)". "" when none was.
func (a *Agent) leftOutNote(g *Goal) string {
	var parts []string
	for _, act := range a.Domain.Actions {
		if !g.Candidate(act) {
			continue
		}
		why := ""
		if act.Secured() {
			why = refusal(act, a.Authorities)
		}
		if why == "" && a.cooldown[act.Index] > a.time+1e-9 {
			why = "backed off for " + shortNumber(roundTo(a.cooldown[act.Index]-a.time, 3)) + " s after a failure"
		}
		if why != "" {
			parts = append(parts, act.Name+" ("+why+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "left out: " + strings.Join(parts, "; ")
}

// roundTo rounds f to n decimals, for numbers in messages.
func roundTo(f float64, n int) float64 {
	p := 1.0
	for ; n > 0; n-- {
		p *= 10
	}
	return float64(int64(f*p+0.5)) / p
}
