package sim

import (
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Overlay is what the demo's debug overlay shows for one soldier: its body,
// what it runs and why. Scores are the utility planner's now, in the
// soldier's current state, as the agent re-scores them each tick while a
// pick runs; the records are its flight recorder's latest.
type Overlay struct {
	Soldier   string
	Team      int
	Health    float64
	Ammo      float64
	Magazines float64
	InCover   bool
	Doing     string // the running action, "idle" or "dead"
	// DecidedBy says which planner chose what the soldier does now, from
	// engine.Agent.DecidedBy, so the overlay says what the records say:
	// "goal" (a GOAP plan for Goal: the latest decision record is a plan
	// record), "pick" (a utility pick: a pick record) or "" (no plan).
	DecidedBy string
	// Goal is the GOAP goal the soldier's plan serves; "" unless DecidedBy
	// is "goal".
	Goal string
	// GoalPriority is Goal's priority ("high"), "" without a goal.
	GoalPriority string
	// Plan is the remaining steps, the running one first; PlanCosts their
	// costs, step by step.
	Plan      []string
	PlanCosts []float64
	// LastReplan is the reason of the latest replan or interrupt among
	// the soldier's records ("" when there is none), and LastReplanAt its
	// world time in seconds.
	LastReplan   string
	LastReplanAt float64
	// Planning says GOAP planning is on (off with MOONMIND_GOAP=off, see
	// Config.NoGOAP); Unmet are the goals whose condition does not hold
	// now, in the domain's order.
	Planning bool
	Unmet    []string
	// Mode is the utility mode ("multiply" for the soldier), Commitment
	// the lead a new pick needs over the running action.
	Mode       string
	Commitment float64
	// Pick is what the utility planner picks now ("" when no action
	// applies); Kept says the running action stays although another scores
	// higher, by no more than Commitment.
	Pick string
	Kept bool
	// Scores are the actions whose precondition holds, best first
	// (declaration order among equal scores).
	Scores []ActionScore
	// Blocked are the actions whose precondition does not hold now, so
	// they are not scored, in declaration order.
	Blocked []Blocked
	// Records are the flight recorder's latest records, oldest first.
	Records []record.Event
}

// ActionScore is one action's utility score with its considerations, in
// the order the script declares them.
type ActionScore struct {
	Action         string
	Score          float64
	Considerations []ConsiderationScore
}

// ConsiderationScore is one consideration's part in a score: the raw
// Input (a state value; NaN when the variable is missing or not a number),
// the Output in [0, 1] after the response curve, and the Weight.
type ConsiderationScore struct {
	Name   string
	Input  float64
	Output float64
	Weight float64
}

// Blocked is an action left out of the scores and the precondition that
// keeps it out.
type Blocked struct {
	Action string
	Pre    string
}

// Overlay assembles the overlay data for so with at most records flight
// recorder records (the latest). It scores with the Sim's own utility
// planner (Explain on), so it changes nothing in the soldier's mind; the
// slices are new on each call. A dead soldier has no scores.
func (s *Sim) Overlay(so *Soldier, records int) Overlay {
	a := so.Agent
	o := Overlay{Soldier: so.Name, Team: so.Team, Health: so.Health, Ammo: so.Ammo(), Magazines: so.Magazines(),
		InCover: so.InCover, Doing: so.Doing(), Mode: s.explain.Mode, Commitment: a.Commitment}
	if o.Commitment <= 0 {
		o.Commitment = engine.DefaultCommitment
	}
	o.DecidedBy, o.Planning = a.DecidedBy(), a.PlanningEnabled()
	if g := a.CurrentGoal(); g != nil && o.DecidedBy == "goal" {
		o.Goal, o.GoalPriority = g.Name, g.Priority.String()
	}
	for _, g := range s.Domain.Goals {
		if !g.Satisfied(a.State) {
			o.Unmet = append(o.Unmet, g.Name)
		}
	}
	for _, act := range a.CurrentPlan() {
		o.Plan = append(o.Plan, act.Name)
		o.PlanCosts = append(o.PlanCosts, act.Cost)
	}
	all := a.Recorder.Records()
	for i := len(all) - 1; i >= 0; i-- {
		if k := all[i].Kind; k == record.EventReplan || k == record.EventInterrupt {
			o.LastReplan, o.LastReplanAt = all[i].Reason, all[i].Time
			break
		}
	}
	if len(all) > records {
		o.Records = append(o.Records, all[len(all)-max(records, 0):]...)
	} else {
		o.Records = append(o.Records, all...)
	}
	if so.Dead {
		return o
	}
	s.explain.Commitment = o.Commitment
	pick, e := s.explain.Pick(a.State, a.Running())
	if pick != nil {
		o.Pick = pick.Name
	}
	o.Kept = e.Kept
	scored := map[*engine.Action]bool{}
	for _, ax := range e.Actions {
		scored[ax.Action] = true
		row := ActionScore{Action: ax.Action.Name, Score: ax.Score}
		for _, c := range ax.Considerations {
			row.Considerations = append(row.Considerations,
				ConsiderationScore{Name: c.Name, Input: c.Input, Output: c.Output, Weight: c.Weight})
		}
		o.Scores = append(o.Scores, row)
	}
	for _, act := range s.Domain.Actions {
		if !scored[act] {
			o.Blocked = append(o.Blocked, Blocked{Action: act.Name, Pre: act.Pre.Source()})
		}
	}
	return o
}

// Decision is the overlay's headline: which planner decides now and what
// the soldier does, e.g. "decides now: the GOAP goal armed (high); doing
// fetchMagazine" or "decides now: the utility pick (no goal needs work);
// doing attack". It follows DecidedBy, so it never contradicts the
// soldier's latest plan or pick record.
func (o Overlay) Decision() string {
	doing := "; doing " + o.Doing
	switch o.DecidedBy {
	case "goal":
		return "decides now: the GOAP goal " + o.Goal + " (" + o.GoalPriority + ")" + doing
	case "pick":
		return "decides now: the utility pick (" + o.whyNoGoal() + ")" + doing
	}
	if o.Doing == "idle" {
		return "decides now: nothing applies; idle"
	}
	return "decides now: no planner (a plan handed in)" + doing
}

// GOAPLine is the overlay's GOAP line: the plan with the cost of each step
// and the total when a goal's plan runs, else why none runs.
func (o Overlay) GOAPLine() string {
	if o.DecidedBy != "goal" {
		if len(o.Unmet) == 0 {
			return "GOAP: every goal holds; no plan runs"
		}
		return "GOAP: " + o.whyNoGoal() + "; no plan runs"
	}
	steps := make([]string, len(o.Plan))
	total := 0.0
	for i, a := range o.Plan {
		steps[i] = a + " (" + expr.ShortNumber(o.PlanCosts[i]) + ")"
		total += o.PlanCosts[i]
	}
	return fmt.Sprintf("GOAP: goal %s, plan %s, cost %s", o.Goal, strings.Join(steps, " -> "), expr.ShortNumber(total))
}

// whyNoGoal says why no goal's plan runs: no goal needs work, planning is
// off, or the unmet goals have no plan now.
func (o Overlay) whyNoGoal() string {
	unmet := strings.Join(o.Unmet, ", ")
	switch {
	case len(o.Unmet) == 0:
		return "no goal needs work"
	case !o.Planning:
		return "GOAP is off; unmet: " + unmet
	}
	return "no plan now for " + unmet
}

// RecordLine formats a flight-recorder record in a few words for the
// overlay: the time, the kind and what it is about, e.g.
// "12.3s pick attack 0.945", "14.0s interrupt attack: utility pick
// changed: ...", "3.7s belief-added heard_shot=true", "9.1s tell
// mate_dry="blue2" to blue1", "5.2s start fetchMagazine crate3" or "6.0s
// group-write squad.enemy_x=812 to blue". Long reasons are cut to fit width characters (no limit
// when width <= 0).
func RecordLine(e record.Event, width int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%5.1fs %s", e.Time, e.Kind)
	switch e.Kind {
	case record.EventPlan:
		fmt.Fprintf(&b, " %s: %s", e.Goal, strings.Join(e.Plan, ", "))
	case record.EventPick:
		fmt.Fprintf(&b, " %s %.3f", e.Action, e.Score)
	case record.EventBeliefAdded:
		fmt.Fprintf(&b, " %s=%s", e.Belief, e.Value)
		if e.Peer != "" {
			b.WriteString(" from " + e.Peer)
		}
	case record.EventBeliefRemoved:
		b.WriteString(" " + e.Belief)
	case record.EventTell:
		fmt.Fprintf(&b, " %s=%s to %s", e.Belief, e.Value, e.Peer)
	case record.EventStart, record.EventGroupWrite:
		coordinationRecord(&b, e)
	default:
		if e.Action != "" {
			b.WriteString(" " + e.Action)
		} else if e.Goal != "" {
			b.WriteString(" " + e.Goal)
		}
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	line := b.String()
	if width > 0 && len(line) > width {
		line = line[:max(width-3, 0)] + "..."
	}
	return line
}
