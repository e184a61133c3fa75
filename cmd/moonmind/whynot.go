package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func init() {
	commands["why-not"] = command{what: "say why the planners did not choose an action in a state, with the evidence",
		usage: "why-not FILE --action NAME [--state k=v]... [--claim OBJECT=AGENT]... [--goal NAME] [--max-depth N]",
		run:   whyNotCmd,
	}
	helps["why-not"] = helpText{
		args: "FILE  one role file",
		example: "moonmind why-not scripts/soldier.lua --action attack\n" +
			"  why not attack (role Soldier, decide hybrid)?\n" +
			"  - its precondition does not hold: enemy_visible && enemy_health > 0 && ammo > 0\n" +
			"      fails: enemy_visible  (enemy_visible = false)",
		exits: "1  the action is not chosen: the reasons are printed\n2  the role does not load, an unknown action or goal, or a bad flag or --state",
		more: "The agent is a fresh one at the role's initial state changed by --state: a back-off after a failure\n" +
			"happens only in a running game (see moonmind trace for fail records). Exit 0 means the action is\n" +
			"chosen: the first step of the plan or the utility pick, or a later step of the plan (the output says which).\n" +
			"--claim OBJECT=AGENT has another agent hold a slot of one of the role's smart objects (see moonmind plan).",
	}
}

// whyNot is what why-not found, printed as lines under the question.
type whyNot struct {
	w      io.Writer
	d      *engine.Domain
	st     expr.State
	act    *engine.Action
	chosen bool
	ow     *objectWorld // the role's smart objects and their claims, or nil
}

// planner is a planner at depth that, when the role declares smart
// objects, plans around those the agent may not claim.
func (r *whyNot) planner(depth int) *engine.Planner {
	if r.ow != nil {
		return r.ow.planner(depth)
	}
	return depthPlanner(r.d, depth)
}

func (r *whyNot) say(format string, args ...any) {
	fmt.Fprintf(r.w, "- "+format+"\n", args...)
}

func (r *whyNot) detail(format string, args ...any) {
	fmt.Fprintf(r.w, "    "+format+"\n", args...)
}

// whyNotCmd answers "why did the planners not choose this action in this
// state": restriction, the failing clauses of its precondition with the
// values read, the goals it could serve and whether they already hold, the
// plan that won each of them against the best plan that starts with the
// action (both with their costs), the depth limit, and the utility scores
// of the pick and of the action, consideration by consideration.
func whyNotCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("why-not", stderr)
	var states stateFlags
	var claims claimFlags
	fs.Var(&states, "state", stateUsage)
	fs.Var(&claims, "claim", claimUsage)
	action := fs.String("action", "", "the action that was not chosen (required)")
	goal := fs.String("goal", "", "only this goal")
	depth := fs.Int("max-depth", engine.DefaultMaxDepth, "most steps per goal (1..256)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if *action == "" {
		fmt.Fprintln(stderr, "moonmind why-not: --action NAME is required")
		return 2
	}
	if *depth < 1 || *depth > engine.MaxMaxDepth {
		fmt.Fprintf(stderr, "moonmind why-not: --max-depth must be in 1..%d, not %d\n", engine.MaxMaxDepth, *depth)
		return 2
	}
	rt, d, st, code := loadWithState("why-not", pos, states, stderr)
	if code != 0 {
		return code
	}
	defer rt.Close()
	a := d.Action(*action)
	if a == nil {
		fmt.Fprintf(stderr, "moonmind why-not: --action %s: the role has no action %q%s\n", *action, *action,
			engine.DidYouMean(*action, d.ActionNames()))
		return 2
	}
	var only *engine.Goal
	if *goal != "" {
		if only = d.Goal(*goal); only == nil {
			fmt.Fprintf(stderr, "moonmind why-not: --goal %s: the role has no goal %q%s\n", *goal, *goal,
				engine.DidYouMean(*goal, d.GoalNames()))
			return 2
		}
	}
	ow, err := newObjectWorld(rt, d, st, claims)
	if err != nil {
		fmt.Fprintf(stderr, "moonmind why-not: %v\n", err)
		return 2
	}
	r := &whyNot{w: stdout, d: d, st: st, act: a, ow: ow}
	fmt.Fprintf(stdout, "why not %s (role %s, decide %s)?\n", a.Name, d.Name, d.Decide)
	if a.Restricted {
		r.say("it is restricted: the executors and the tick refuse it and every plan that holds it")
	}
	preHolds := a.Pre.Eval(st)
	if !preHolds {
		r.precondition()
	}
	goalsFirst := false
	if d.Decide != "utility" {
		goalsFirst = r.goap(only, *depth, preHolds)
	}
	if d.Decide != "goap" && !r.chosen {
		r.utility(goalsFirst)
	}
	if r.chosen {
		return 0
	}
	return 1
}

// precondition prints the clauses of the action's precondition that fail
// in the state, with the values they read.
func (r *whyNot) precondition() {
	pre := r.act.Pre
	r.say("its precondition does not hold: %s", pre.Source())
	for _, n := range failingClauses(pre.Root(), pre, r.st) {
		var vals []string
		for _, slot := range n.Reads(nil) {
			v := expr.Value{}
			if slot < len(r.st) {
				v = r.st[slot]
			}
			text := v.String()
			if !v.IsKnown() {
				text = "missing (a condition that reads a missing variable never holds)"
			}
			vals = append(vals, r.d.Schema.Name(slot)+" = "+text)
		}
		r.detail("fails: %s  (%s)", nodeText(n, r.d.Schema), strings.Join(vals, ", "))
	}
}

// goap prints, for each goal the action can serve, why its plan does not
// start with the action. It reports whether some unsatisfied goal has a
// plan, so that the goals come before the utility planner.
func (r *whyNot) goap(only *engine.Goal, depth int, preHolds bool) bool {
	d, a, st := r.d, r.act, r.st
	pl := r.planner(depth)
	var full *engine.Plan
	var fullErr error
	if only != nil {
		full, fullErr = pl.PlanFor(only, st)
	} else {
		full, fullErr = pl.Plan(st)
	}
	goalsFirst := fullErr == nil && len(full.Steps) > 0
	if fullErr == nil {
		for i, s := range full.Steps {
			if s == a {
				r.chosen = true
				if i == 0 {
					r.say("it is chosen: it is the first step of the plan %s  [cost %s]", planText(full.Steps), expr.ShortNumber(full.Cost))
				} else {
					r.say("it is chosen later: step %d of the plan %s  [cost %s]", i+1, planText(full.Steps), expr.ShortNumber(full.Cost))
				}
				return goalsFirst
			}
		}
	}
	var served []*engine.Goal
	for _, g := range d.ByPrio {
		if (only == nil || g == only) && relevantTo(d, g)[a.Index] {
			served = append(served, g)
		}
	}
	if len(served) == 0 {
		if only != nil {
			r.say("it cannot serve goal %s: it neither fulfills it, nor assigns a variable its condition (%s) reads, nor helps an action that does",
				only.Name, only.Condition.Source())
		} else {
			r.say("the GOAP planner never plans it: it fulfills no goal, assigns no variable a goal's condition reads, and helps no action that does")
		}
		return goalsFirst
	}
	for _, g := range served {
		if g.Satisfied(st) {
			r.say("goal %s, which it serves, holds already: %s is true (%s)", g.Name, g.Condition.Source(), readsText(g.Condition, d.Schema, st))
			continue
		}
		p, err := r.planner(depth).PlanFor(g, st)
		if err != nil {
			var pe *engine.PlanError
			if errors.As(err, &pe) && pe.Reason == engine.MaxDepthExceeded {
				r.say("goal %s has no plan within the depth limit (%d steps): %s", g.Name, depth, pe.Message())
			} else {
				r.say("goal %s, which it serves, has no plan: %s", g.Name, planErrText(err))
			}
			continue
		}
		if !preHolds {
			r.say("goal %s is planned as %s  [cost %s], which does not lead to %s", g.Name, planText(p.Steps), expr.ShortNumber(p.Cost), a.Name)
			continue
		}
		r.compare(g, p.Steps, p.Cost, depth)
	}
	if goalsFirst && !slices.Contains(served, full.Goals[0].Goal) {
		first := full.Goals[0]
		r.say("the agent pursues goal %s (priority %s) first: %s  [cost %s]", first.Goal.Name, first.Goal.Priority,
			planText(first.Steps), expr.ShortNumber(first.Cost))
	}
	return goalsFirst
}

// compare prints the plan that won goal g against the cheapest plan that
// starts with the action, whose precondition holds.
func (r *whyNot) compare(g *engine.Goal, won []*engine.Action, wonCost float64, depth int) {
	a := r.act
	after := r.st.Clone()
	if !a.Effects.TryApply(after, r.st) {
		r.say("its effects cannot apply here (%s): arithmetic on a variable that is not a number", effectText(a))
		return
	}
	mine := []*engine.Action{a}
	cost := a.Cost
	if !g.Satisfied(after) {
		// Plan the rest without the depth limit, to tell "beyond the
		// limit" from "dearer".
		rest, err := r.planner(engine.MaxMaxDepth).PlanFor(g, after)
		if err != nil {
			r.say("after %s, goal %s has no plan: %s", a.Name, g.Name, planErrText(err))
			return
		}
		mine = append(mine, rest.Steps...)
		cost += rest.Cost
	}
	if len(mine) > depth {
		r.say("beyond the depth limit (%d steps): starting with %s, goal %s needs %s  (%d steps) [cost %s]; the plan that won: %s  [cost %s]",
			depth, a.Name, g.Name, planText(mine), len(mine), expr.ShortNumber(cost), planText(won), expr.ShortNumber(wonCost))
		return
	}
	switch {
	case cost > wonCost:
		r.say("a cheaper plan won goal %s: %s  [cost %s]; starting with %s: %s  [cost %s]", g.Name,
			planText(won), expr.ShortNumber(wonCost), a.Name, planText(mine), expr.ShortNumber(cost))
	case cost == wonCost:
		r.say("an equally cheap plan declared first won goal %s (ties go to declaration order): %s  [cost %s]; starting with %s: %s  [cost %s]",
			g.Name, planText(won), expr.ShortNumber(wonCost), a.Name, planText(mine), expr.ShortNumber(cost))
	default:
		r.say("goal %s is planned as %s  [cost %s], though %s  [cost %s] is cheaper", g.Name, planText(won),
			expr.ShortNumber(wonCost), planText(mine), expr.ShortNumber(cost))
	}
}

// utility prints the utility pick and the action's score, both
// consideration by consideration. The pick is the agent's: the best scored
// action that scores more than 0 and is not restricted.
func (r *whyNot) utility(goalsFirst bool) {
	if k := r.act.Uses; r.ow != nil && k != "" && r.ow.object(r.act) == "" {
		r.say("the utility planner does not pick it: it uses a %s, and no %s has a slot free now", k, k)
		return
	}
	u := engine.NewUtilityPlanner(r.d)
	u.Explain = true
	_, e := u.Pick(r.st, nil)
	if goalsFirst && r.d.Decide == "hybrid" {
		r.say("decide is hybrid and a goal has a plan, so the utility planner is not asked; were it asked:")
	}
	var mine, best *engine.ActionExplanation
	for i := range e.Actions {
		ax := &e.Actions[i]
		if ax.Action == r.act {
			mine = ax
		}
		if best == nil && ax.Score > 0 && !ax.Action.Restricted {
			best = ax
		}
	}
	switch {
	case mine == nil:
		r.say("the utility planner does not score it: only actions whose precondition holds are scored")
		if best != nil {
			r.say("the utility planner picks %s, score %s:", best.Action.Name, short(best.Score))
			r.breakdown(best)
		} else {
			r.say("the utility planner picks nothing: no action scores more than 0")
		}
	case best == mine:
		if !goalsFirst || r.d.Decide == "utility" {
			r.chosen = true
		}
		r.say("the utility planner picks it, score %s:", short(mine.Score))
		r.breakdown(mine)
	case !(mine.Score > 0):
		r.say("it scored %s, and an action that scores 0 is never picked (%s mode):", short(mine.Score), e.Mode)
		r.breakdown(mine)
	case best == nil:
		r.say("the utility planner picks nothing: it is restricted and no other action scores more than 0")
	default:
		r.say("it scored lower: %s %s against %s %s (%s mode)", r.act.Name, short(mine.Score), best.Action.Name, short(best.Score), e.Mode)
		r.detail("%s:", best.Action.Name)
		r.breakdown(best)
		r.detail("%s:", r.act.Name)
		r.breakdown(mine)
	}
}

func (r *whyNot) breakdown(ax *engine.ActionExplanation) {
	if len(ax.Considerations) == 0 {
		r.detail("  (no considerations)")
	}
	for _, c := range ax.Considerations {
		in := short(c.Input)
		if math.IsNaN(c.Input) {
			in = "-"
		}
		line := fmt.Sprintf("  %s  input %s  output %s  weight %s", c.Name, in, short(c.Output), short(c.Weight))
		if c.Err != nil {
			line += "  error: " + c.Err.Error()
		}
		r.detail("%s", line)
	}
}

// relevantTo returns, by action index, the actions that can matter to goal
// g: those that fulfill it or assign a variable its condition reads, then,
// transitively, those that assign a variable read by a relevant action's
// precondition.
func relevantTo(d *engine.Domain, g *engine.Goal) []bool {
	rel := make([]bool, len(d.Actions))
	writers := map[int][]*engine.Action{} // slot -> actions assigning it
	for _, a := range d.Actions {
		for i := 0; i < a.Effects.NumAssigns(); i++ {
			s := a.Effects.Target(i)
			writers[s] = append(writers[s], a)
		}
	}
	// A worklist, linear in actions and assignments: a domain of
	// thousands of chained actions is checked at once.
	needed := map[int]bool{}
	var queue []*engine.Action
	mark := func(a *engine.Action) {
		if !rel[a.Index] {
			rel[a.Index] = true
			queue = append(queue, a)
		}
	}
	need := func(s int) {
		if !needed[s] {
			needed[s] = true
			for _, a := range writers[s] {
				mark(a)
			}
		}
	}
	for _, s := range g.Condition.Reads() {
		need(s)
	}
	for _, a := range d.Actions {
		if a.Serves(g) {
			mark(a)
		}
	}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, s := range a.Pre.Reads() {
			need(s)
		}
	}
	return rel
}

// failingClauses returns the smallest parts of condition c under n that
// fail in st: into every failing conjunct of an "&&", else n itself.
func failingClauses(n expr.Node, c *expr.Condition, st expr.State) []expr.Node {
	if n.IsZero() || n.Condition(c).Eval(st) {
		return nil
	}
	if n.Op() != expr.OpAnd {
		return []expr.Node{n}
	}
	var out []expr.Node
	for i := 0; i < n.NumKids(); i++ {
		out = append(out, failingClauses(n.Kid(i), c, st)...)
	}
	return out
}

// nodeText writes a node of a compiled condition back as condition text.
func nodeText(n expr.Node, sc *expr.Schema) string {
	sub := func(k expr.Node, parent expr.Op) string {
		s := nodeText(k, sc)
		if op := k.Op(); (op == expr.OpOr || op == expr.OpAnd) && op != parent || parent == expr.OpNot && (op == expr.OpCompare || op == expr.OpVarLit || op == expr.OpVarVar) {
			return "(" + s + ")"
		}
		return s
	}
	switch n.Op() {
	case expr.OpOr, expr.OpAnd:
		sep := " || "
		if n.Op() == expr.OpAnd {
			sep = " && "
		}
		parts := make([]string, n.NumKids())
		for i := range parts {
			parts[i] = sub(n.Kid(i), n.Op())
		}
		return strings.Join(parts, sep)
	case expr.OpNot:
		return "!" + sub(n.Kid(0), expr.OpNot)
	case expr.OpVar:
		return sc.Name(n.Slot())
	case expr.OpLit:
		return n.Lit().String()
	case expr.OpCompare:
		return sub(n.Kid(0), expr.OpCompare) + " " + n.Cmp().String() + " " + sub(n.Kid(1), expr.OpCompare)
	case expr.OpVarLit:
		return sc.Name(n.Slot()) + " " + n.Cmp().String() + " " + n.Lit().String()
	case expr.OpVarVar:
		return sc.Name(n.Slot()) + " " + n.Cmp().String() + " " + sc.Name(n.Slot2())
	}
	return ""
}

func readsText(c *expr.Condition, sc *expr.Schema, st expr.State) string {
	var parts []string
	for _, s := range c.Reads() {
		parts = append(parts, sc.Name(s)+" = "+st[s].String())
	}
	return strings.Join(parts, ", ")
}

func planText(steps []*engine.Action) string {
	return "[" + strings.Join(names(steps), ", ") + "]"
}

func effectText(a *engine.Action) string {
	if a.Effects == nil {
		return "no effects"
	}
	return a.Effects.Source()
}

// planErrText is a planning error as a designer reads it: a
// *engine.PlanError's reason, goal, action and detail, without the
// package's prefix.
func planErrText(err error) string {
	var pe *engine.PlanError
	if errors.As(err, &pe) {
		return pe.Message()
	}
	return strings.TrimPrefix(err.Error(), "engine: ")
}
