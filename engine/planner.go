package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
)

// Planner limits.
const (
	DefaultMaxDepth = 10
	MaxMaxDepth     = 256
	defaultBudget   = 10000
)

// Plan is a sequence of actions that serves one or more goals. Steps is the
// whole plan; Goals splits it by goal, in the order the goals were planned.
// Cost is the sum of the steps' costs.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Plan struct {
	Steps []*Action
	Goals []GoalPlan
	Cost  float64
	// Expansions is the number of search nodes expanded to find the plan.
	Expansions int
}

// GoalPlan is the part of a plan that serves one goal.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type GoalPlan struct {
	Goal  *Goal
	Steps []*Action
	Cost  float64
}

// Names returns the step names in order (a new slice).
func (p *Plan) Names() []string {
	out := make([]string, len(p.Steps))
	for i, a := range p.Steps {
		out[i] = a.Name
	}
	return out
}

// Planner is the backward-chaining (GOAP) planner: it finds, for each
// unsatisfied goal, the cheapest sequence of actions whose simulated
// effects make the goal hold, deterministically. docs/semantics.md lists
// its rules and where moonmind departs from the planner it follows.
//
// # Algorithm
//
// For each goal the planner first regresses from the goal, over parsed
// variables (never text), to the actions that can matter: the goal's
// candidates (see Action.Serves), then, transitively, those that assign a
// variable read by a relevant action's precondition or by its assignments
// to variables that matter (the search core's analysis, engine/internal/goap). This is done once per goal and Planner. It then runs an A*
// search forward from the current state over those actions only,
// simulating each action's effects on a copy of the state, until it takes
// from the open set a state where the goal holds. An action may appear any
// number of times in a plan. The heuristic is admissible: for each
// conjunct of the goal condition (split at top-level "&&"), a conjunct
// "x > c" (or >=, <, <=) whose variable only ever moves by constant steps
// needs at least ceil(distance / largest step) steps, each costing at least
// the cheapest such action, plus, when every action moving x that way
// needs a bound on another such variable y that it pushes y toward (as
// "tired < 50" for a "tired = tired + 20"), the least number of the other
// actions that pull y back between them (see resource); a conjunct that is
// a bare variable p costs at least the shortest path to p, from a fact true
// in the state, in the relaxed problem where deletes are ignored and each
// action keeps only the first bare variable of its precondition (see
// relaxed); any other unmet conjunct needs at least one action that assigns
// one of its variables;
// the heuristic is the largest of these. Two search states that agree on every variable that can matter
// are the same state; a state reached again neither more cheaply nor by a
// shorter path is not expanded again, so cycles end.
//
// # Guarantees
//
//   - Valid: each step's precondition holds in the simulated state where
//     it runs, no step's effect fails to apply, and the goal holds after
//     the last step or the last step lists the goal in fulfills (such a
//     step completes the goal whatever its effects say, see
//     Goal.Candidate; the search ends there).
//   - Optimal: no plan of at most MaxDepth steps for the goal costs less
//     (cost per action, default 1).
//   - Ties: among plans of least cost, the first in declaration order wins:
//     plans compare step by step by the actions' declaration index.
//   - Deterministic: the same domain, state and limits give the same plan.
//   - Bounded: at most Budget node expansions per goal (the MAX_DEPTH_EXCEEDED
//     check may spend a second budget), and memory proportional to Budget
//     times the number of relevant actions.
//
// # Several goals
//
// Plan plans every unsatisfied goal, highest priority first (declaration
// order among equals), applying each goal's steps to the simulated state
// before planning the next; goals satisfied at that point are skipped,
// never planned as empty plans. The whole plan fails with the first goal
// that fails.
//
// # Failures
//
// Failures are *PlanError values with the goal's name and MaxDepth; Reason
// is one of:
//   - UNREACHABLE: no action fulfills the goal or assigns a variable it
//     reads; or the search ran out of states without ever being cut by the
//     depth limit (then, when some candidate action — one that fulfills the
//     goal or assigns a variable it reads — never had its precondition hold
//     in an expanded state, Action and Precondition name the first such
//     candidate in declaration order).
//   - CYCLIC_PRECONDITION: as UNREACHABLE with a blocking candidate, when
//     the variables of that candidate's precondition, closed over the
//     preconditions of the actions that assign them, are all assigned by
//     some action and every such action needs one of them: only the chain
//     itself could produce what it needs (A needs p; B needs q and sets p;
//     C needs p and sets q).
//   - MAX_DEPTH_EXCEEDED: the search ran out of states within MaxDepth but
//     was cut by it (a state at MaxDepth had an applicable action, or a
//     successor provably needed more steps than were left), and a second
//     search with the depth limit at 256 found a plan (Detail gives its
//     length) or spent its budget. If that second search proves there is
//     no plan at all, the reason is UNREACHABLE or CYCLIC_PRECONDITION.
//   - SEARCH_BUDGET_EXCEEDED: Budget expansions were spent with states
//     still open and no plan found; Expansions says how many.
//
// PRECONDITION_STALE and GOAL_UNSATISFIED_AFTER_EXECUTION come from
// an executor's Think (package engine/executor), never from a Planner.
//
// With Chaining false, a goal is planned only as one candidate action that
// can run now and whose effects make the goal hold (the cheapest, the first
// declared among equals); otherwise the error is UNREACHABLE, naming the
// first candidate whose precondition does not hold.
//
// A Planner keeps scratch buffers between calls so steady-state planning
// does not allocate; it is not safe for concurrent use (use one per
// goroutine; they may share the Domain). The returned *Plan and its slices
// are valid until the next call.
type Planner struct {
	Domain *Domain
	// MaxDepth bounds the steps of one goal's plan. The default (zero)
	// value is DefaultMaxDepth, 10; a negative value also means
	// DefaultMaxDepth, and values above MaxMaxDepth (256) are clamped.
	MaxDepth int
	// Budget bounds the node expansions of one goal's search. The default
	// (zero) value is 10,000 expansions; a negative value also means
	// 10,000.
	Budget int
	// Chaining chains helper actions for unmet preconditions; false plans
	// only actions that can run now. NewPlanner sets it; the zero value of
	// a Planner has it off.
	Chaining bool
	// Policy, when set, leaves out the actions it forbids (see Policy); a
	// goal that has a plan only through such an action fails with
	// NOT_AUTHORIZED naming it and the authority it needs. Nil plans with
	// every action.
	Policy *Policy

	// exclude, when set, leaves out the actions whose Index is true: the
	// tick uses it for actions backed off after a failure. A goal that
	// has a plan only through such an action fails with BACKED_OFF naming
	// it.
	exclude []bool
	// objectWhy, when set, says why an excluded action that uses a kind
	// of smart object is left out ("" when it is backed off instead): the
	// agent's, for the BACKED_OFF detail (object.go).
	objectWhy func(*Action) string
	skipBuf   []bool // the array of s.Skip, the actions left out (see prepareSkip)

	// s is the search core: its Skip, Budget, Slice and buffers.
	s goap.Searcher

	scratch expr.State // planDirect's simulated state
	sim     expr.State
	plan    Plan
	pathBuf []int32
}

// NewPlanner returns a planner over d with chaining on, MaxDepth
// DefaultMaxDepth (10) and the default Budget. Set the fields to change
// them before the first Plan.
func NewPlanner(d *Domain) *Planner {
	return &Planner{Domain: d, Chaining: true, MaxDepth: DefaultMaxDepth}
}

func (p *Planner) depth() int {
	switch {
	case p.MaxDepth <= 0:
		return DefaultMaxDepth
	case p.MaxDepth > MaxMaxDepth:
		return MaxMaxDepth
	}
	return p.MaxDepth
}

func (p *Planner) budget() int {
	if p.Budget <= 0 {
		return defaultBudget
	}
	return p.Budget
}

// Plan plans every goal unsatisfied in st, highest priority first. st is
// not modified. With every goal satisfied the plan is empty.
func (p *Planner) Plan(st expr.State) (*Plan, error) {
	if p.exclude != nil || p.Policy != nil {
		p.prepareSkip()
	} else {
		p.s.Skip = nil // prepareSkip's common case, without the call
	}
	p.prepareSearch()
	// The plan emptied field by field: the slices keep their arrays, so
	// only their lengths are written.
	p.plan.Steps, p.plan.Goals = p.plan.Steps[:0], p.plan.Goals[:0]
	p.plan.Cost, p.plan.Expansions = 0, 0
	// sim is st itself, only read, until a goal's steps must be applied
	// for the goals after it; then a copy (p.sim). The last goal's steps
	// are not applied: nothing reads the state after them.
	sim, own := st, false
	full := len(st) >= p.Domain.Schema.Len()
	goals := p.Domain.ByPrio
	for i, g := range goals {
		// The goal's flattened condition gives exactly g.Satisfied, faster,
		// on a state that has every slot.
		// A cached analysis is of the searcher's problem, the domain's
		// lowered one (prepareSearch), so of this goal.
		gs := p.s.Cached(g.Index)
		if gs == nil {
			gs = p.s.GoalSearch(p.goalOf(g))
		}
		if full && gs.Satisfied(sim) || !full && g.Satisfied(sim) {
			continue
		}
		apply := i < len(goals)-1
		if apply && !own {
			p.sim = append(p.sim[:0], st...)
			sim, own = p.sim, true
		}
		var err error
		if p.s.Slice != nil {
			err = p.planGoal(g, gs, sim, apply)
		} else {
			err = p.planGoalSearch(g, gs, sim, apply) // planGoal without the call
		}
		if err != nil {
			return nil, err
		}
	}
	if len(p.plan.Goals) > 1 {
		p.splitGoals() // one goal's Steps is already all of the plan's
	}
	return &p.plan, nil
}

// PlanFor plans goal g alone from st. A goal already satisfied gives an
// empty plan.
func (p *Planner) PlanFor(g *Goal, st expr.State) (*Plan, error) {
	p.prepareSkip()
	p.prepareSearch()
	p.sim = append(p.sim[:0], st...)
	p.plan = Plan{Steps: p.plan.Steps[:0], Goals: p.plan.Goals[:0]}
	if !g.Satisfied(p.sim) {
		gs := p.s.Cached(g.Index)
		if gs == nil || gs.Goal() != p.goalOf(g) {
			gs = p.s.GoalSearch(p.goalOf(g))
		}
		if err := p.planGoal(g, gs, p.sim, true); err != nil {
			return nil, err
		}
	}
	p.splitGoals()
	return &p.plan, nil
}

// splitGoals points each GoalPlan's Steps into the plan's Steps; done after
// planning so that growing Steps cannot leave stale slices.
func (p *Planner) splitGoals() {
	at := 0
	for i := range p.plan.Goals {
		n := len(p.plan.Goals[i].Steps)
		p.plan.Goals[i].Steps = p.plan.Steps[at : at+n : at+n]
		at += n
	}
}

// prepareSearch points the search core at the domain's lowered problem
// with the planner's budget.
func (p *Planner) prepareSearch() {
	if p.s.Problem() != p.Domain.lowered {
		p.s.Reset(p.Domain.lowered)
	}
	p.s.Budget = p.budget()
}

// goalOf returns g as the search core knows it: the domain's lowered goal,
// or for a goal of another domain a lowering of its own that no action
// fulfills.
func (p *Planner) goalOf(g *Goal) *goap.Goal {
	if goals := p.Domain.lowered.Goals; g.Index >= 0 && g.Index < len(goals) && p.Domain.Goals[g.Index] == g {
		return goals[g.Index]
	}
	return &goap.Goal{Name: g.Name, Index: -1, Condition: g.Condition}
}

// planGoal appends the steps of g (whose analysis is gs) to p.plan and,
// when apply is set, applies them to sim (else sim is only read). Under a
// plan budget (see goap.Slice) it returns errSearchPaused when a search
// of the goal's chain, the main search or one that explains its failure,
// ran out of the tick's budget.
func (p *Planner) planGoal(g *Goal, gs *goap.GoalSearch, sim expr.State, apply bool) error {
	if sl := p.s.Slice; sl != nil {
		sl.BeginChain()
		err := p.planGoalSearch(g, gs, sim, apply)
		if err != errSearchPaused {
			sl.EndChain()
		}
		return err
	}
	return p.planGoalSearch(g, gs, sim, apply)
}

func (p *Planner) planGoalSearch(g *Goal, gs *goap.GoalSearch, sim expr.State, apply bool) error {
	if len(gs.Direct()) == 0 {
		return &PlanError{Reason: Unreachable, Goal: g.Name, MaxDepth: p.depth(),
			Detail: "no action fulfills the goal or assigns a variable its condition reads" + p.Domain.namedConditionNote(g.Condition)}
	}
	if !p.Chaining {
		return p.planDirect(g, gs, sim, apply)
	}
	maxDepth := p.depth()
	end, res, cut, exp := p.s.Search(gs, sim, maxDepth)
	p.plan.Expansions += exp
	if res == goap.Paused {
		return errSearchPaused
	}
	if res != goap.Found {
		err := p.explain(g, gs, sim, maxDepth, res, cut, exp)
		if p.s.Suspended() {
			return errSearchPaused // an explaining search was suspended
		}
		return err
	}
	start := len(p.plan.Steps)
	p.plan.Steps = goap.AppendPath(&p.s, end, p.plan.Steps, p.Domain.Actions)
	cost := p.s.Cost(end)
	p.plan.Cost += cost
	p.plan.Goals = append(p.plan.Goals, GoalPlan{Goal: g, Steps: p.plan.Steps[start:len(p.plan.Steps):len(p.plan.Steps)], Cost: cost})
	if apply {
		p.s.StoreEnd(end, sim)
	}
	return nil
}

func (p *Planner) planDirect(g *Goal, gs *goap.GoalSearch, sim expr.State, apply bool) error {
	var best, blocked, leftOut *Action
	n := p.Domain.Schema.Len()
	if len(p.scratch) < n {
		p.scratch = make(expr.State, max(n, 64))
	}
	scratch := p.scratch[:n]
	skip := p.s.Skip
	for _, i := range gs.Direct() {
		a := p.Domain.Actions[i]
		skipped := skip != nil && skip[i]
		if skipped && leftOut != nil {
			continue
		}
		if !a.Pre.Eval(sim) {
			if skipped {
				continue
			}
			// Name the first blocked action that fulfills the goal, else
			// the first blocked candidate.
			if blocked == nil || a.Serves(g) && !blocked.Serves(g) {
				blocked = a
			}
			continue
		}
		copy(scratch, sim)
		if !a.Effects.TryApply(scratch, sim) || !a.Serves(g) && !g.Satisfied(scratch) {
			continue
		}
		if skipped {
			leftOut = a // it would serve: the first such is the cause
			continue
		}
		if best == nil || a.Cost < best.Cost {
			best = a
		}
	}
	if best == nil && leftOut != nil {
		return p.leftOutError(g, leftOut, p.depth())
	}
	if best == nil {
		e := &PlanError{Reason: Unreachable, Goal: g.Name, MaxDepth: p.depth(),
			Detail: "no candidate action can run now and reach the goal (chaining is off)"}
		if blocked != nil {
			e.Action, e.Precondition = blocked.Name, blocked.Pre.Source()
		}
		return e
	}
	start := len(p.plan.Steps)
	p.plan.Steps = append(p.plan.Steps, best)
	p.plan.Cost += best.Cost
	p.plan.Goals = append(p.plan.Goals, GoalPlan{Goal: g, Steps: p.plan.Steps[start:len(p.plan.Steps):len(p.plan.Steps)], Cost: best.Cost})
	if apply {
		copy(scratch, sim)
		best.Effects.TryApply(sim, scratch)
	}
	return nil
}

// explain builds the error for a search that found no plan: when actions
// were left out and a plan exists with them, the error names the first
// left-out step of that plan (BACKED_OFF or NOT_AUTHORIZED); otherwise
// the search's own reason.
func (p *Planner) explain(g *Goal, gs *goap.GoalSearch, start expr.State, maxDepth int, res goap.Outcome, cut bool, expansions int) error {
	e := p.explainSearch(g, gs, start, maxDepth, res, cut, expansions)
	if p.s.Skip == nil || p.s.Suspended() {
		return e
	}
	if le := p.blameLeftOut(g, gs, start, maxDepth); le != nil {
		return le
	}
	return e
}

// explainSearch builds the error for a search that found no plan, from
// that search alone.
func (p *Planner) explainSearch(g *Goal, gs *goap.GoalSearch, start expr.State, maxDepth int, res goap.Outcome, cut bool, expansions int) *PlanError {
	f := p.s.Explain(gs, start, maxDepth, res, cut, expansions)
	return &PlanError{Reason: failureReasons[f.Reason], Goal: g.Name, Action: f.Action, Precondition: f.Precondition,
		MaxDepth: maxDepth, Expansions: f.Expansions, Detail: f.Detail}
}

// failureReasons are the reasons of the search core's failures.
var failureReasons = [...]Reason{
	goap.Unreachable:        Unreachable,
	goap.CyclicPrecondition: CyclicPrecondition,
	goap.MaxDepthExceeded:   MaxDepthExceeded,
	goap.BudgetExceeded:     SearchBudgetExceeded,
}
