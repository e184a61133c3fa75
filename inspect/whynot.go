package inspect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// WhyNot says why an agent is not running an action now, as lines of
// evidence read from its state, goals, plan, records and utility scores.
type WhyNot struct {
	Action string `json:"action"`
	// Chosen is true when the action runs now or is a step of the plan.
	Chosen bool     `json:"chosen"`
	Lines  []string `json:"lines"`
}

// whyNot answers for ag and the action named action, between ticks.
func (a *attached) whyNot(ag *engine.Agent, action string) (*WhyNot, error) {
	d := ag.Domain
	act := d.Action(action)
	if act == nil {
		return nil, fmt.Errorf("inspect: role %s has no action %q%s", d.Name, action, engine.DidYouMean(action, d.ActionNames()))
	}
	r := &WhyNot{Action: action}
	say := func(format string, args ...any) { r.Lines = append(r.Lines, fmt.Sprintf(format, args...)) }
	if ag.Running() == act {
		r.Chosen = true
		say("it is running now")
	} else if k := slices.Index(ag.CurrentPlan(), act); k >= 0 {
		r.Chosen = true
		say("it is step %d of the plan for %s", k+1, nameOr(ag.CurrentGoal()))
	}
	if act.Restricted {
		say("it is restricted: the tick refuses it and every plan that holds it")
	}
	if act.Authority != "" && !slices.Contains(ag.Authorities, act.Authority) {
		say("it needs the authority %q, which the agent is not granted", act.Authority)
	}
	if act.Pre.Eval(ag.State) {
		say("its precondition holds: %s", orAlways(act.Pre.Source()))
	} else {
		var vals []string
		for _, slot := range act.Pre.Reads() {
			vals = append(vals, d.Schema.Name(slot)+" = "+ag.State[slot].String())
		}
		say("its precondition does not hold: %s  (%s)", act.Pre.Source(), strings.Join(vals, ", "))
	}
	recs := ag.Recorder.Records()
	for k := len(recs) - 1; k >= 0; k-- {
		if e := recs[k]; e.Action == action && e.Kind == record.EventFail {
			say("it failed at t=%.2fs (%s): a failed action is backed off for the agent's retry delay (1 s unless set)", e.Time, e.Reason)
			break
		}
	}
	if d.Decide != "utility" {
		var serves []string
		cur := ag.CurrentGoal()
		for _, g := range d.ByPrio {
			if g.Candidate(act) {
				state := "unsatisfied"
				if g.Satisfied(ag.State) {
					state = "satisfied, so not planned for"
				}
				serves = append(serves, fmt.Sprintf("%s (%s, %s)", g.Name, g.Priority, state))
			}
		}
		if len(serves) == 0 {
			say("no goal can use it: it fulfills none and its effects assign nothing a goal reads")
		} else {
			say("goals it can serve: %s", strings.Join(serves, "; "))
		}
		if cur != nil && ag.DecidedBy() == "goal" {
			var steps []string
			cost := 0.0
			for _, s := range ag.CurrentPlan() {
				steps = append(steps, s.Name)
				cost += s.Cost
			}
			say("the agent pursues %s (%s) with %s [cost %g]", cur.Name, cur.Priority, strings.Join(steps, ", "), cost)
		}
	}
	if d.Decide != "goap" && d.Decide != "" {
		u := a.utility(ag)
		for k, row := range u.Actions {
			if row.Action == action {
				say("its utility score is %.3f, rank %d of %d; the pick is %s", row.Score, k+1, len(u.Actions), orNone(u.Pick))
				for _, c := range row.Considerations {
					say("  %s: input %s, output %.3f, weight %g", c.Name, inputText(c.Input), c.Output, c.Weight)
				}
			}
		}
	}
	return r, nil
}

func nameOr(g *engine.Goal) string {
	if g == nil {
		return "no goal"
	}
	return g.Name
}

func orAlways(s string) string {
	if s == "" {
		return "(none: always)"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func inputText(n JSONNumber) string {
	b, _ := n.MarshalJSON()
	if string(b) == "null" {
		return "missing"
	}
	return string(b)
}
