package llm

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// PlanStep is one step of a Plan (LLMPlanStep in docs/llm.md): the action the
// model proposes, in its words, with its arguments. Index is the step's
// place in its plan, from 0.
type PlanStep struct {
	Index       int            `json:"index"`
	Action      string         `json:"action"`
	Description string         `json:"description"`
	Arguments   map[string]any `json:"arguments"`
	Reasoning   string         `json:"reasoning,omitempty"`
}

// Plan is the model's plan for a goal written in plain text (LLMPlan in
// docs/llm.md). Plans are values: the With, Without and RemainingFrom methods
// return a new plan whose steps are numbered again from 0 and leave the
// receiver as it was. The Steps slice is shared with no other plan made by
// these methods.
type Plan struct {
	Goal      string     `json:"goal"`
	Steps     []PlanStep `json:"steps"`
	Reasoning string     `json:"reasoning"`
}

// Size returns the number of steps.
func (p Plan) Size() int { return len(p.Steps) }

// IsEmpty reports whether the plan has no step.
func (p Plan) IsEmpty() bool { return len(p.Steps) == 0 }

// Actions returns the steps' action names, in order.
func (p Plan) Actions() []string {
	out := make([]string, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.Action
	}
	return out
}

// renumbered returns p with these steps, numbered from 0.
func (p Plan) renumbered(steps []PlanStep) Plan {
	out := Plan{Goal: p.Goal, Reasoning: p.Reasoning, Steps: make([]PlanStep, len(steps))}
	for i, s := range steps {
		s.Index = i
		out.Steps[i] = s
	}
	return out
}

// WithReorderedSteps returns the plan with its steps in the given order:
// order[i] is the index of the step that comes i-th. order must hold each
// index 0..Size()-1 exactly once, else the error says what is wrong.
func (p Plan) WithReorderedSteps(order []int) (Plan, error) {
	if len(order) != len(p.Steps) {
		return Plan{}, fmt.Errorf("llm: an order of %d indexes for a plan of %d steps", len(order), len(p.Steps))
	}
	seen := make([]bool, len(p.Steps))
	steps := make([]PlanStep, len(order))
	for i, k := range order {
		if k < 0 || k >= len(p.Steps) {
			return Plan{}, fmt.Errorf("llm: order[%d] = %d is not a step index (0..%d)", i, k, len(p.Steps)-1)
		}
		if seen[k] {
			return Plan{}, fmt.Errorf("llm: order names step %d twice", k)
		}
		seen[k] = true
		steps[i] = p.Steps[k]
	}
	return p.renumbered(steps), nil
}

// WithoutStep returns the plan without step i; an i out of range is an
// error.
func (p Plan) WithoutStep(i int) (Plan, error) { return p.withoutSteps([]int{i}) }

func (p Plan) withoutSteps(indexes []int) (Plan, error) {
	drop := make([]bool, len(p.Steps))
	for _, i := range indexes {
		if i < 0 || i >= len(p.Steps) {
			return Plan{}, fmt.Errorf("llm: step %d is not in a plan of %d steps", i, len(p.Steps))
		}
		drop[i] = true
	}
	var steps []PlanStep
	for i, s := range p.Steps {
		if !drop[i] {
			steps = append(steps, s)
		}
	}
	return p.renumbered(steps), nil
}

// RemainingFrom returns the steps from index i on (all of them for i <= 0,
// none for i >= Size()).
func (p Plan) RemainingFrom(i int) Plan {
	i = min(max(i, 0), len(p.Steps))
	return p.renumbered(p.Steps[i:])
}

// DisplayString returns the plan for people: the goal, the model's
// reasoning, then one numbered line per step with its arguments (keys
// sorted) and its reasoning.
func (p Plan) DisplayString() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan for: %s\n", p.Goal)
	if p.Reasoning != "" {
		fmt.Fprintf(&b, "Reasoning: %s\n", p.Reasoning)
	}
	if len(p.Steps) == 0 {
		b.WriteString("(no steps)\n")
	}
	for _, s := range p.Steps {
		fmt.Fprintf(&b, "%d. %s", s.Index+1, s.Action)
		if s.Description != "" {
			fmt.Fprintf(&b, ": %s", s.Description)
		}
		if len(s.Arguments) > 0 {
			b.WriteString(" " + argumentsString(s.Arguments))
		}
		b.WriteByte('\n')
		if s.Reasoning != "" {
			fmt.Fprintf(&b, "   because %s\n", s.Reasoning)
		}
	}
	return b.String()
}

func argumentsString(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v, _ := json.Marshal(args[k])
		parts[i] = k + "=" + string(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
