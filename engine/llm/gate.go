package llm

import (
	"context"
	"fmt"
)

// decisionKind says what a Decision does.
type decisionKind uint8

const (
	approve decisionKind = iota
	reject
	removeSteps
	reorder
	modify
	replace
)

// Decision is what a review callback decides about a plan; make one with
// Approve, Reject, RemoveSteps, Reorder, Modify or Replace. The zero
// Decision approves.
type Decision struct {
	kind    decisionKind
	reason  string
	removed []int
	order   []int
	plan    Plan
}

// Approve takes the plan as it is.
func Approve() Decision { return Decision{kind: approve} }

// Reject takes no plan, for the reason given.
func Reject(reason string) Decision { return Decision{kind: reject, reason: reason} }

// RemoveSteps takes the plan without the steps at these indexes.
func RemoveSteps(indexes ...int) Decision {
	return Decision{kind: removeSteps, removed: append([]int(nil), indexes...)}
}

// Reorder takes the steps in a new order: order[i] is the index of the
// step that comes i-th (see Plan.WithReorderedSteps).
func Reorder(order ...int) Decision {
	return Decision{kind: reorder, order: append([]int(nil), order...)}
}

// Modify removes the steps at removed first, then reorders what is left;
// order uses the indexes of the plan after the removal.
func Modify(removed, order []int) Decision {
	return Decision{kind: modify, removed: append([]int(nil), removed...), order: append([]int(nil), order...)}
}

// Replace takes another plan instead (the grounding rule's GOAP fallback
// uses it); its goal is kept from the reviewed plan and its steps are
// numbered again.
func Replace(p Plan) Decision { return Decision{kind: replace, plan: p} }

// String names the decision, for traces.
func (d Decision) String() string {
	switch d.kind {
	case reject:
		return "reject(" + d.reason + ")"
	case removeSteps:
		return fmt.Sprintf("removeSteps(%v)", d.removed)
	case reorder:
		return fmt.Sprintf("reorder(%v)", d.order)
	case modify:
		return fmt.Sprintf("modify(%v, %v)", d.removed, d.order)
	case replace:
		return fmt.Sprintf("replace(%v)", d.plan.Actions())
	}
	return "approve"
}

// ReviewFunc reviews a plan: a person at a prompt, or a rule.
type ReviewFunc func(Plan) Decision

// Verdict is a gate's answer: the plan to run when Approved, else the
// reason it was rejected.
type Verdict struct {
	Plan     Plan
	Approved bool
	Reason   string
	Decision Decision // what the callback decided; Approve for a plan approved without it
}

// PlanApprovalGate lets a person or a rule review a plan before it runs
// (docs/llm.md). It is safe for concurrent use when its
// callback is.
type PlanApprovalGate struct {
	review      ReviewFunc
	reviewEmpty bool
}

// NewPlanApprovalGate returns a gate that asks review about every plan
// with at least one step; an empty plan is approved without asking unless
// AutoApproveEmpty(false).
func NewPlanApprovalGate(review ReviewFunc) *PlanApprovalGate {
	return &PlanApprovalGate{review: review}
}

// AutoApprove returns a gate that approves every plan.
func AutoApprove() *PlanApprovalGate { return NewPlanApprovalGate(nil) }

// AutoApproveEmpty sets whether an empty plan is approved without calling
// the callback (true, the default) or reviewed like any other.
func (g *PlanApprovalGate) AutoApproveEmpty(auto bool) *PlanApprovalGate {
	g.reviewEmpty = !auto
	return g
}

// Review applies the callback's decision to p. A rejection is no error:
// the Verdict is not Approved and holds the reason. A decision that does
// not fit the plan (an index out of range, an order that is not a
// permutation) is an error.
func (g *PlanApprovalGate) Review(p Plan) (Verdict, error) {
	if g.review == nil || p.IsEmpty() && !g.reviewEmpty {
		return Verdict{Plan: p, Approved: true, Decision: Approve()}, nil
	}
	d := g.review(p)
	v := Verdict{Decision: d, Approved: true}
	var err error
	switch d.kind {
	case approve:
		v.Plan = p
	case reject:
		v = Verdict{Plan: Plan{Goal: p.Goal, Steps: []PlanStep{}}, Reason: d.reason, Decision: d}
	case removeSteps:
		v.Plan, err = p.withoutSteps(d.removed)
	case reorder:
		v.Plan, err = p.WithReorderedSteps(d.order)
	case modify:
		if v.Plan, err = p.withoutSteps(d.removed); err == nil {
			v.Plan, err = v.Plan.WithReorderedSteps(d.order)
		}
	case replace:
		v.Plan = Plan{Goal: p.Goal, Reasoning: d.plan.Reasoning}.renumbered(d.plan.Steps)
	}
	if err != nil {
		return Verdict{Plan: Plan{Goal: p.Goal, Steps: []PlanStep{}}, Decision: d}, fmt.Errorf("llm: review decision %s: %w", d, err)
	}
	return v, nil
}

// GenerateAndReview asks planner for a plan toward goal and reviews it.
// The error is the planner's (a refused goal, a failed call) or a decision
// that does not fit the plan.
func (g *PlanApprovalGate) GenerateAndReview(ctx context.Context, planner *DynamicPlanner, goal string) (Verdict, error) {
	p, err := planner.GeneratePlan(ctx, goal)
	if err != nil {
		return Verdict{Plan: p}, err
	}
	return g.Review(p)
}
