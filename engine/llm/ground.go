package llm

import (
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"

	"github.com/moonmind-ai/moonmind/engine"
)

// CapabilitiesOf lists a role's actions as capabilities, in declaration
// order, each described by its precondition, effects and cost, so the
// model plans with what the role can really do. Restricted actions are
// left out.
func CapabilitiesOf(d *engine.Domain) []Capability {
	out := make([]Capability, 0, len(d.Actions))
	for _, a := range d.Actions {
		if a.Restricted {
			continue
		}
		var parts []string
		if !a.Pre.IsEmpty() {
			parts = append(parts, "needs "+a.Pre.Source())
		}
		if !a.Effects.IsEmpty() {
			parts = append(parts, "makes "+a.Effects.Source())
		}
		parts = append(parts, "cost "+expr.FormatNumber(a.Cost))
		out = append(out, Capability{Name: a.Name, Description: strings.Join(parts, "; ")})
	}
	return out
}

// Grounding is a plan checked against a role: whether each step names an
// action of the role whose precondition holds in the state the steps
// before it leave (simulated with the actions' effects from the current
// state) and whether the last state meets the goal.
type Grounding struct {
	// Valid is true when every step holds and the goal (when one is
	// given) holds at the end.
	Valid bool
	// FailedStep is the index of the first step that does not hold;
	// Size() of the plan when every step holds but the goal is not met;
	// -1 when Valid.
	FailedStep int
	// Reason says what does not hold, naming the step, its action and the
	// precondition or goal condition; empty when Valid.
	Reason string
	// Prefix is how many leading steps hold, in sequence.
	Prefix int
	// Actions are the role's actions of those Prefix steps.
	Actions []*engine.Action
	// End is the simulated state after the Prefix steps.
	End expr.State
}

// Ground checks plan p against domain d from state st (not modified)
// toward goal (nil checks only the steps). A step fails when its action
// is not in the role, is restricted, has a precondition that does not hold
// at that point, or has an effect that cannot apply (arithmetic on a value
// that is not a number).
func Ground(d *engine.Domain, st expr.State, goal *engine.Goal, p Plan) Grounding {
	sim := st.Clone()
	next := st.Clone()
	g := Grounding{FailedStep: -1}
	for i, s := range p.Steps {
		a := d.Action(s.Action)
		reason := ""
		switch {
		case a == nil:
			reason = fmt.Sprintf("the role %s has no action %q%s", d.Name, s.Action, engine.DidYouMean(s.Action, d.ActionNames()))
		case a.Restricted:
			reason = fmt.Sprintf("action %q is restricted", s.Action)
		case !a.Pre.Eval(sim):
			reason = fmt.Sprintf("the precondition of %q, %s, does not hold", s.Action, a.Pre.Source())
		default:
			if err := a.Effects.Apply(next, sim); err != nil {
				reason = fmt.Sprintf("the effects of %q cannot apply: %s", s.Action, strings.TrimPrefix(err.Error(), "engine: "))
			}
		}
		if reason != "" {
			g.FailedStep = i
			g.Reason = fmt.Sprintf("step %d (%s): %s", i, s.Action, reason)
			g.End = sim
			return g
		}
		sim, next = next, sim
		copy(next, sim)
		g.Prefix++
		g.Actions = append(g.Actions, a)
	}
	g.End = sim
	if goal != nil && !goal.Satisfied(sim) {
		g.FailedStep = len(p.Steps)
		g.Reason = fmt.Sprintf("after step %d the goal %s (%s) does not hold", len(p.Steps)-1, goal.Name, goal.Condition.Source())
		if len(p.Steps) == 0 {
			g.Reason = fmt.Sprintf("the plan is empty and the goal %s (%s) does not hold", goal.Name, goal.Condition.Source())
		}
		return g
	}
	g.Valid = true
	return g
}

// Fallback is what a GroundingRule does with a plan that does not hold.
type Fallback uint8

const (
	// RejectInvalid rejects the plan, with the grounding's reason.
	RejectInvalid Fallback = iota
	// TrimToValidPrefix keeps the steps before the first that does not
	// hold (rejecting when there are none).
	TrimToValidPrefix
	// FallBackToGOAP replaces the plan with the GOAP planner's plan for
	// the goal (rejecting when there is none, or no goal).
	FallBackToGOAP
)

// GroundingRule is a review rule for a PlanApprovalGate: the model may
// propose, the engine decides. Use it as NewPlanApprovalGate(rule.Review).
// It only reads its fields, so one rule may review from many goroutines.
type GroundingRule struct {
	Domain *engine.Domain
	State  expr.State   // the current state the plan starts from
	Goal   *engine.Goal // the goal the plan must reach; nil checks only the steps
	// OnInvalid is what happens to a plan that does not hold; the zero
	// value rejects it.
	OnInvalid Fallback
}

// Review grounds p (see Ground) and approves it when valid; otherwise it
// rejects, trims or replaces it as OnInvalid says. A rejection's reason is
// the grounding's.
func (r GroundingRule) Review(p Plan) Decision {
	g := Ground(r.Domain, r.State, r.Goal, p)
	if g.Valid {
		return Approve()
	}
	switch r.OnInvalid {
	case TrimToValidPrefix:
		if g.Prefix == 0 {
			return Reject(g.Reason + "; no step holds, so nothing is left to keep")
		}
		removed := make([]int, 0, p.Size()-g.Prefix)
		for i := g.Prefix; i < p.Size(); i++ {
			removed = append(removed, i)
		}
		if len(removed) == 0 { // every step holds, only the goal is not met
			return Approve()
		}
		return RemoveSteps(removed...)
	case FallBackToGOAP:
		if r.Goal == nil {
			return Reject(g.Reason + "; no goal to plan for with GOAP")
		}
		plan, err := engine.NewPlanner(r.Domain).PlanFor(r.Goal, r.State)
		if err != nil {
			return Reject(g.Reason + "; GOAP: " + strings.TrimPrefix(err.Error(), "engine: "))
		}
		out := Plan{Goal: p.Goal, Reasoning: "GOAP fallback: " + g.Reason}
		for _, a := range plan.Steps {
			out.Steps = append(out.Steps, PlanStep{Action: a.Name, Description: "planned by GOAP for goal " + r.Goal.Name,
				Arguments: map[string]any{}})
		}
		return Replace(out)
	}
	return Reject(g.Reason)
}
