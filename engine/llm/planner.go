package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
)

// Capability is an action the model may put in a plan: its name, as the
// step's "action", and what it does.
type Capability struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// DefaultTemperature is the planner's temperature when none is set.
const DefaultTemperature = 0.2

// MaxPlanSteps is the most steps a plan read from a model's reply may
// have: a longer one is an error (see GeneratePlan), not a plan of tens of
// thousands of steps copied into Lua and into every trace record of the
// answer.
const MaxPlanSteps = 100

// DynamicPlanner asks a chat model for the steps toward a goal written in
// plain text (LLMDynamicPlanner in docs/llm.md). Build one with
// NewDynamicPlanner. It is immutable and safe for concurrent use when its
// client and guard rails are.
type DynamicPlanner struct {
	client      Client
	caps        []Capability
	context     string
	temperature float64
	rails       []GuardRail
	log         *slog.Logger
}

// DynamicPlannerBuilder collects a DynamicPlanner's settings; Build checks
// them.
type DynamicPlannerBuilder struct {
	p DynamicPlanner
}

// NewDynamicPlanner starts a planner over client (required): no
// capabilities, no additional context, temperature DefaultTemperature, no
// guard rails, warnings to slog.Default().
func NewDynamicPlanner(client Client) *DynamicPlannerBuilder {
	return &DynamicPlannerBuilder{p: DynamicPlanner{client: client, temperature: DefaultTemperature}}
}

// Capability adds one capability at the end of the list.
func (b *DynamicPlannerBuilder) Capability(name, description string) *DynamicPlannerBuilder {
	b.p.caps = append(b.p.caps, Capability{Name: name, Description: description})
	return b
}

// Capabilities replaces the list of capabilities.
func (b *DynamicPlannerBuilder) Capabilities(caps []Capability) *DynamicPlannerBuilder {
	b.p.caps = append([]Capability(nil), caps...)
	return b
}

// AdditionalContext sets extra text for the prompt (default empty).
func (b *DynamicPlannerBuilder) AdditionalContext(text string) *DynamicPlannerBuilder {
	b.p.context = text
	return b
}

// Temperature sets the sampling temperature; Build refuses one outside
// 0..2.
func (b *DynamicPlannerBuilder) Temperature(t float64) *DynamicPlannerBuilder {
	b.p.temperature = t
	return b
}

// GuardRails adds checks of the raw goal text, run in order before any
// model call.
func (b *DynamicPlannerBuilder) GuardRails(rails ...GuardRail) *DynamicPlannerBuilder {
	b.p.rails = append(b.p.rails, rails...)
	return b
}

// Logger sets where the warning for an unreadable reply goes; nil means
// slog.Default().
func (b *DynamicPlannerBuilder) Logger(l *slog.Logger) *DynamicPlannerBuilder {
	b.p.log = l
	return b
}

// Build returns the planner, or an error naming the setting that is
// wrong: no client, a temperature outside 0..2, a capability without a
// name.
func (b *DynamicPlannerBuilder) Build() (*DynamicPlanner, error) {
	p := b.p
	if p.client == nil {
		return nil, errors.New("llm: the planner needs a client")
	}
	if math.IsNaN(p.temperature) || p.temperature < 0 || p.temperature > 2 {
		return nil, fmt.Errorf("llm: temperature must be in 0..2, not %v", p.temperature)
	}
	for i, c := range p.caps {
		if strings.TrimSpace(c.Name) == "" {
			return nil, fmt.Errorf("llm: capability %d has no name", i)
		}
	}
	p.caps = append([]Capability(nil), p.caps...)
	p.rails = append([]GuardRail(nil), p.rails...)
	return &p, nil
}

// WithCapabilities returns a copy of the planner with another list of
// capabilities (npc:llm_plan uses it for each request's own list).
func (p *DynamicPlanner) WithCapabilities(caps []Capability) *DynamicPlanner {
	q := *p
	q.caps = append([]Capability(nil), caps...)
	return &q
}

// WithTemperature returns a copy of the planner with another sampling
// temperature (npc:llm_plan's temperature option), or an error for one
// outside 0..2.
func (p *DynamicPlanner) WithTemperature(t float64) (*DynamicPlanner, error) {
	if math.IsNaN(t) || t < 0 || t > 2 {
		return nil, fmt.Errorf("llm: temperature must be in 0..2, not %v", t)
	}
	q := *p
	q.temperature = t
	return &q, nil
}

// WithMoreContext returns a copy of the planner whose additional context
// is its own followed by text, on a line of its own (npc:llm_plan's
// context option).
func (p *DynamicPlanner) WithMoreContext(text string) *DynamicPlanner {
	q := *p
	if q.context != "" && text != "" {
		q.context += "\n" + text
	} else {
		q.context += text
	}
	return &q
}

// WithGuardRails returns a copy of the planner with rails run after its
// own (npc:llm_plan's max_goal_chars and deny options).
func (p *DynamicPlanner) WithGuardRails(rails ...GuardRail) *DynamicPlanner {
	q := *p
	q.rails = append(append([]GuardRail(nil), p.rails...), rails...)
	return &q
}

// Capabilities returns a copy of the planner's capabilities.
func (p *DynamicPlanner) Capabilities() []Capability { return append([]Capability(nil), p.caps...) }

// Temperature returns the planner's temperature.
func (p *DynamicPlanner) Temperature() float64 { return p.temperature }

// Client returns the planner's client.
func (p *DynamicPlanner) Client() Client { return p.client }

// CheckGoal runs the guard rails on goal: nil, or a *RefusedError.
func (p *DynamicPlanner) CheckGoal(goal string) error { return checkGoal(p.rails, goal) }

// GeneratePlan asks the model for a plan toward goal with exactly one
// chat call. The error is a *RefusedError when a guard rail refuses the
// goal (no call is made), the client's error when the call fails, or
// "llm: the model's plan has N steps, more than MaxPlanSteps (100)" with
// an empty plan. A reply that cannot be read is no error: the plan is
// empty and a warning is logged.
func (p *DynamicPlanner) GeneratePlan(ctx context.Context, goal string) (Plan, error) {
	return p.GeneratePlanWithState(ctx, goal, nil)
}

// GeneratePlanWithState is GeneratePlan with the current world state in
// the prompt, as a JSON object with sorted keys (nil or empty leaves it
// out).
func (p *DynamicPlanner) GeneratePlanWithState(ctx context.Context, goal string, state map[string]any) (Plan, error) {
	if err := p.CheckGoal(goal); err != nil {
		return Plan{Goal: goal, Steps: []PlanStep{}}, err
	}
	user := "Goal: " + goal
	if len(state) > 0 {
		user += "\nCurrent state (JSON): " + string(stateJSON(state))
	}
	return p.ask(ctx, p.client, goal, user)
}

func (p *DynamicPlanner) ask(ctx context.Context, c Client, goal, user string) (Plan, error) {
	reply, err := c.Chat(ctx, ChatRequest{
		Messages:    []Message{{Role: "system", Content: p.systemPrompt()}, {Role: "user", Content: user}},
		Temperature: p.temperature,
	})
	if err != nil {
		return Plan{Goal: goal, Steps: []PlanStep{}}, err
	}
	plan, ok := ParseReply(goal, reply)
	if len(plan.Steps) > MaxPlanSteps {
		return Plan{Goal: goal, Steps: []PlanStep{}},
			fmt.Errorf("llm: the model's plan has %d steps, more than MaxPlanSteps (%d)", len(plan.Steps), MaxPlanSteps)
	}
	if !ok {
		l := p.log
		if l == nil {
			l = slog.Default()
		}
		l.Warn("llm: the model's reply holds no plan (no JSON plan, no numbered list); the plan is empty",
			"goal", goal, "reply", clip(reply, 200))
	}
	return plan, nil
}

func (p *DynamicPlanner) systemPrompt() string {
	var b strings.Builder
	b.WriteString("You plan the steps a game character takes toward a goal.\n")
	if len(p.caps) == 0 {
		b.WriteString("No specific actions are given: write generic, concrete steps, and name each step's action with a short snake_case verb.\n")
	} else {
		b.WriteString("Use only these actions, by exact name, in each step's \"action\":\n")
		for _, c := range p.caps {
			if c.Description != "" {
				fmt.Fprintf(&b, "- %s: %s\n", c.Name, c.Description)
			} else {
				fmt.Fprintf(&b, "- %s\n", c.Name)
			}
		}
	}
	if p.context != "" {
		b.WriteString("Context: " + p.context + "\n")
	}
	b.WriteString(`Answer with JSON only, of this shape:
{"reasoning": "why this plan", "steps": [{"action": "name", "description": "what the step does", "arguments": {}, "reasoning": "why this step"}]}
`)
	return b.String()
}

// stateJSON writes the state as a JSON object; json.Marshal sorts the
// keys, which the prompt depends on. A value JSON cannot write (a NaN, a
// channel) is written as the string fmt.Sprint makes of it.
func stateJSON(state map[string]any) []byte {
	vals := make(map[string]json.RawMessage, len(state))
	for k, v := range state {
		vb, err := json.Marshal(v)
		if err != nil {
			vb, _ = json.Marshal(fmt.Sprint(v))
		}
		vals[k] = vb
	}
	js, _ := json.Marshal(vals)
	return js
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
