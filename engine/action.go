package engine

import (
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// UtilitySpec is the utility data of an action, read by the utility
// planner. A zero Cost, Value or Weight means the default 1 unless
// Set marks it as given, so an explicit 0 stays 0.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type UtilitySpec struct {
	Cost, Value, Weight float64
	Tags                []string
	Set                 UtilityField // the fields given explicitly (UtilityCost, …)
}

// ActionSpec declares an action. Cost is the planning cost, > 0; zero means
// the default 1. Body may be nil: the action is then plannable but not
// executable.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ActionSpec struct {
	Name       string
	Pre        string // precondition, the condition language
	Effects    string // the effect language
	Fulfills   []string
	Cost       float64
	Utility    UtilitySpec
	Restricted bool   // permitted by no Policy: no agent may run it
	Authority  string // the authority a Policy must grant to run it (@SecureAgentTool), or ""
	Body       Body
	// Uses is the kind of smart object the action needs a slot of, or ""
	// (see Object): it is planned only while such an object has a slot the
	// agent may claim, and its step holds the slot while it runs.
	Uses string
	// Inputs are the type names the action needs on the blackboard and
	// Output the one it produces; Post names the named conditions it
	// promises; AchievesGoal names the goal it completes (made from Output
	// when the role declares no such goal); NoRerun is can_rerun = false:
	// it runs at most once while one goal is pursued. See compileTyped.
	Inputs       []string
	Output       string
	Post         []string
	AchievesGoal string
	NoRerun      bool
	// Considerations, when given, score this action in the utility
	// planner instead of the role's (the IAUS attaches them per action).
	Considerations []ConsiderationSpec
	Pos            Pos // where the action is declared
	PreAt          Pos // where the precondition text starts, when known
	EffectsAt      Pos // where the effect text starts, when known
	FulfillsAt     Pos // where fulfills is declared, when known
}

// Action is a compiled action of a Domain. Read-only.
type Action struct {
	Name       string
	Index      int // position in Domain.Actions (declaration order)
	Pre        *expr.Condition
	Effects    *expr.Effect
	Fulfills   []*Goal
	Cost       float64
	Utility    UtilitySpec
	Restricted bool
	Authority  string // the authority needed to run it, or ""
	Body       Body
	Uses       string // the kind of smart object its step claims, or "" (see Object)
	// inputs, output, post, achievesGoal and NoRerun are the typed
	// contract of the ActionSpec (already part of Pre, Effects and
	// Fulfills); post holds the promised named conditions.
	inputs       []string
	output       string
	post         []*NamedCondition
	achievesGoal string
	NoRerun      bool
	// Considerations are the action's own utility considerations, or nil
	// to use the planner's.
	Considerations []Consideration
	Pos            Pos
}

// Serves reports whether the action lists g in fulfills.
//
// Which actions serve a goal: an action is a candidate for goal g when it
// lists g in fulfills or its effects assign a variable that g's condition
// reads, compared by parsed variable slot, never by text (see
// isCandidate). This is the one rule: PlannerHandle.PlanForGoal returns the
// candidates, and the planner's regression (analyse) starts from them and
// adds, transitively, the actions that help a candidate run.
func (a *Action) Serves(g *Goal) bool {
	for _, f := range a.Fulfills {
		if f == g {
			return true
		}
	}
	return false
}

// isCandidate reports whether a is a candidate for g: it fulfills g or
// assigns a variable g's condition reads (see Serves).
func isCandidate(a *Action, g *Goal) bool {
	reads := g.Condition.Reads()
	return a.Serves(g) || slices.ContainsFunc(a.Effects.Writes(), func(w int) bool { return slices.Contains(reads, w) })
}

// ActionBuilder builds an ActionSpec step by step, for actions declared in
// Go.
// It is not safe for concurrent use.
type ActionBuilder struct{ spec ActionSpec }

// NewAction starts an action with cost 1 and no body.
func NewAction(name string) *ActionBuilder {
	return &ActionBuilder{spec: ActionSpec{Name: name, Cost: 1}}
}

// Pre sets the precondition.
func (b *ActionBuilder) Pre(cond string) *ActionBuilder { b.spec.Pre = cond; return b }

// Effects sets the effects.
func (b *ActionBuilder) Effects(eff string) *ActionBuilder { b.spec.Effects = eff; return b }

// Fulfills adds goal names the action serves.
func (b *ActionBuilder) Fulfills(goals ...string) *ActionBuilder {
	b.spec.Fulfills = append(b.spec.Fulfills, goals...)
	return b
}

// Cost sets the planning cost.
func (b *ActionBuilder) Cost(c float64) *ActionBuilder { b.spec.Cost = c; return b }

// utility sets the utility data.
func (b *ActionBuilder) utility(u UtilitySpec) *ActionBuilder { b.spec.Utility = u; return b }

// Restricted marks the action as permitted by no policy.
func (b *ActionBuilder) Restricted() *ActionBuilder { b.spec.Restricted = true; return b }

// Authority makes the action need the named authority (see Policy).
func (b *ActionBuilder) Authority(name string) *ActionBuilder { b.spec.Authority = name; return b }

// Body sets what runs when the action executes.
func (b *ActionBuilder) Body(body Body) *ActionBuilder { b.spec.Body = body; return b }

// Inputs sets the type names the action needs (see ActionSpec.Inputs).
func (b *ActionBuilder) Inputs(types ...string) *ActionBuilder {
	b.spec.Inputs = append(b.spec.Inputs, types...)
	return b
}

// Output sets the type name the action produces.
func (b *ActionBuilder) Output(typ string) *ActionBuilder { b.spec.Output = typ; return b }

// post adds named conditions the action promises.
func (b *ActionBuilder) post(conds ...string) *ActionBuilder {
	b.spec.Post = append(b.spec.Post, conds...)
	return b
}

// achievesGoal marks the action as the one that completes the named goal.
func (b *ActionBuilder) achievesGoal(goal string) *ActionBuilder {
	b.spec.AchievesGoal = goal
	return b
}

// NoRerun makes the action run at most once while one goal is pursued
// (can_rerun = false).
func (b *ActionBuilder) NoRerun() *ActionBuilder { b.spec.NoRerun = true; return b }

// Spec returns the built spec.
func (b *ActionBuilder) Spec() ActionSpec { return b.spec }
