package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// StepExecutor runs one step of a plan in the game and returns what it
// produced; an error (or a panic) fails the step.
type StepExecutor func(ctx context.Context, step PlanStep) (output string, err error)

// StepResult is the outcome of one step run. Attempt is 0 for the first
// plan and n for the plan of the n-th replan.
type StepResult struct {
	Step    PlanStep
	Attempt int
	Success bool
	Output  string
	Error   string
}

// PlanExecutionResult is what AdaptiveReplanEngine.Execute did: the last
// plan it ran, every step result (of earlier plans too, in order, the
// failed steps that caused a replan included) and how many replans it
// asked for.
//
// Success is true only when every step result succeeded, so it is false
// after any replan even when the revised plan completed (docs/llm.md explains why).
// LastPlanCompleted tells whether the last plan ran to its end.
type PlanExecutionResult struct {
	Plan        Plan
	StepResults []StepResult
	Success     bool
	ReplanCount int
	lastDone    bool
}

// CompletedCount returns the number of steps that succeeded.
func (r PlanExecutionResult) CompletedCount() int {
	n := 0
	for _, s := range r.StepResults {
		if s.Success {
			n++
		}
	}
	return n
}

// FailedCount returns the number of steps that failed.
func (r PlanExecutionResult) FailedCount() int { return len(r.StepResults) - r.CompletedCount() }

// TotalSteps returns the number of steps run, over every plan.
func (r PlanExecutionResult) TotalSteps() int { return len(r.StepResults) }

// LastPlanCompleted reports whether every step of the last plan (Plan)
// ran and succeeded: the goal's plan finished, replans or not.
func (r PlanExecutionResult) LastPlanCompleted() bool { return r.lastDone }

// DefaultMaxReplanAttempts is AdaptiveReplanEngine's replan limit when
// none is set.
const DefaultMaxReplanAttempts = 3

// AdaptiveReplanEngine runs a plan's steps in order and asks the model for
// a revised plan when one fails (docs/llm.md). Build
// one with NewAdaptiveReplanEngine. It is safe for concurrent use when its
// client, planner and step executor are.
type AdaptiveReplanEngine struct {
	client     Client
	planner    *DynamicPlanner
	exec       StepExecutor
	maxReplans int
}

// AdaptiveReplanEngineBuilder collects an AdaptiveReplanEngine's settings.
type AdaptiveReplanEngineBuilder struct {
	e AdaptiveReplanEngine
}

// NewAdaptiveReplanEngine starts an engine; Client, Planner and
// StepExecutor are required, MaxReplanAttempts is DefaultMaxReplanAttempts.
func NewAdaptiveReplanEngine() *AdaptiveReplanEngineBuilder {
	return &AdaptiveReplanEngineBuilder{e: AdaptiveReplanEngine{maxReplans: DefaultMaxReplanAttempts}}
}

// Client sets the model asked for revised plans.
func (b *AdaptiveReplanEngineBuilder) Client(c Client) *AdaptiveReplanEngineBuilder {
	b.e.client = c
	return b
}

// Planner sets the planner that makes the first plan (and whose
// capabilities, context and temperature the replan prompt uses).
func (b *AdaptiveReplanEngineBuilder) Planner(p *DynamicPlanner) *AdaptiveReplanEngineBuilder {
	b.e.planner = p
	return b
}

// StepExecutor sets what runs each step.
func (b *AdaptiveReplanEngineBuilder) StepExecutor(f StepExecutor) *AdaptiveReplanEngineBuilder {
	b.e.exec = f
	return b
}

// MaxReplanAttempts sets how many revised plans the engine may ask for;
// 0 means none, negative is an error at Build.
func (b *AdaptiveReplanEngineBuilder) MaxReplanAttempts(n int) *AdaptiveReplanEngineBuilder {
	b.e.maxReplans = n
	return b
}

// Build returns the engine or an error naming the missing or wrong
// setting.
func (b *AdaptiveReplanEngineBuilder) Build() (*AdaptiveReplanEngine, error) {
	e := b.e
	switch {
	case e.client == nil:
		return nil, errors.New("llm: the replan engine needs a client")
	case e.planner == nil:
		return nil, errors.New("llm: the replan engine needs a planner")
	case e.exec == nil:
		return nil, errors.New("llm: the replan engine needs a step executor")
	case e.maxReplans < 0:
		return nil, fmt.Errorf("llm: maxReplanAttempts must be >= 0, not %d", e.maxReplans)
	}
	return &e, nil
}

// Execute asks the planner for a plan toward goal and runs it (see
// ExecutePlan). The error is the planner's when the first plan cannot be
// had.
func (e *AdaptiveReplanEngine) Execute(ctx context.Context, goal string) (PlanExecutionResult, error) {
	p, err := e.planner.GeneratePlan(ctx, goal)
	if err != nil {
		return PlanExecutionResult{Plan: p}, err
	}
	return e.ExecutePlan(ctx, p)
}

// ExecutePlan runs p's steps in order. When a step fails and fewer than
// MaxReplanAttempts replans were asked for, it sends the model the steps
// completed so far in the current plan, the failed step with its error and
// the remaining steps, and runs the revised plan from its first step (the
// revised plan is not reviewed by any gate). It stops after a failure past
// the limit, on an empty revised plan, or when a replan call fails (that
// error is returned with the results so far).
func (e *AdaptiveReplanEngine) ExecutePlan(ctx context.Context, p Plan) (PlanExecutionResult, error) {
	res := PlanExecutionResult{Plan: p}
	attempt := 0
	for {
		failedAt := -1
		for i, step := range p.Steps {
			r := e.run(ctx, step, attempt)
			res.StepResults = append(res.StepResults, r)
			if !r.Success {
				failedAt = i
				break
			}
		}
		if failedAt < 0 {
			res.lastDone = true
			break
		}
		if res.ReplanCount >= e.maxReplans {
			break
		}
		res.ReplanCount++
		revised, err := e.planner.ask(ctx, e.client, p.Goal, replanPrompt(p, failedAt, res.StepResults[len(res.StepResults)-1].Error))
		if err != nil {
			return res, err
		}
		if revised.IsEmpty() {
			break
		}
		attempt++
		p = revised
		res.Plan = p
	}
	res.Success = true
	for _, r := range res.StepResults {
		res.Success = res.Success && r.Success
	}
	return res, nil
}

// Replan asks the model, with one chat call, for a revised plan after
// step failed of p failed with errText: the prompt AdaptiveReplanEngine
// sends (the steps completed, the failed step and its error, the steps
// not run), with the planner's capabilities, context and temperature.
// npc:llm_plan's execute option uses it. An empty plan means the model
// sees no way to the goal; the error is the client's, or a failed index
// out of range.
func (p *DynamicPlanner) Replan(ctx context.Context, plan Plan, failed int, errText string) (Plan, error) {
	if failed < 0 || failed >= len(plan.Steps) {
		return Plan{Goal: plan.Goal, Steps: []PlanStep{}}, fmt.Errorf("llm: replan: step %d is not in a plan of %d steps", failed, len(plan.Steps))
	}
	return p.ask(ctx, p.client, plan.Goal, replanPrompt(plan, failed, errText))
}

func (e *AdaptiveReplanEngine) run(ctx context.Context, step PlanStep, attempt int) (r StepResult) {
	r = StepResult{Step: step, Attempt: attempt}
	defer func() {
		if v := recover(); v != nil {
			r.Success, r.Output, r.Error = false, "", fmt.Sprintf("the step executor panicked: %v", v)
		}
	}()
	out, err := e.exec(ctx, step)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Success, r.Output = true, out
	return r
}

// replanPrompt tells the model what happened to the current plan.
func replanPrompt(p Plan, failed int, errText string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal: %s\n", p.Goal)
	b.WriteString("A step of the plan failed.\nSteps completed so far in this plan:\n")
	if failed == 0 {
		b.WriteString("(none)\n")
	}
	for _, s := range p.Steps[:failed] {
		writeStep(&b, s)
	}
	b.WriteString("Failed step:\n")
	writeStep(&b, p.Steps[failed])
	fmt.Fprintf(&b, "Error: %s\n", errText)
	b.WriteString("Remaining steps, not run:\n")
	if failed == len(p.Steps)-1 {
		b.WriteString("(none)\n")
	}
	for _, s := range p.Steps[failed+1:] {
		writeStep(&b, s)
	}
	b.WriteString("Write a revised plan for what is left of the goal, in the same JSON shape. An empty list of steps means the goal cannot be reached.\n")
	return b.String()
}

func writeStep(b *strings.Builder, s PlanStep) {
	fmt.Fprintf(b, "%d. %s", s.Index+1, s.Action)
	if s.Description != "" {
		fmt.Fprintf(b, ": %s", s.Description)
	}
	if len(s.Arguments) > 0 {
		b.WriteString(" " + argumentsString(s.Arguments))
	}
	b.WriteByte('\n')
}
