// Package plantest is the planner's test machinery, shared by the tests
// of package engine and of its search core (engine/internal/goap): random
// domains written as text (Spec, drawn with rapid), their lowering to the
// search core's Problem the way engine.Compile lowers a role, a plain
// depth-first reference search that every planner must agree with
// (BruteForce), and a driver that plans one or all goals of a Problem as
// engine.Planner does (Plan). It is imported only by tests.
package plantest

import (
	"fmt"
	"slices"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
)

// Goal priorities, with engine.Priority's values: a higher one is planned
// first.
const (
	Low      = 10
	Normal   = 20
	High     = 30
	Critical = 40
)

// Var is a state variable and its initial value.
type Var struct {
	Name  string
	Value expr.Value
}

// Action is an action as a role declares it: precondition and effects in
// the expression language ("" for none), its cost, the goals it
// fulfills and whether it may run only once in a plan.
type Action struct {
	Name, Pre, Effects string
	Cost               float64
	Fulfills           []string
	NoRerun            bool
}

// Goal is a goal as a role declares it.
type Goal struct {
	Name, Condition string
	Priority        int
}

// Spec is a domain as text: the state's variables, goals and actions, in
// declaration order.
type Spec struct {
	Name    string
	State   []Var
	Goals   []Goal
	Actions []Action
}

// Lower compiles s into the search core's Problem as engine.Compile
// lowers a role: the variables take the first slots in order, every
// effect's targets the next ones, then the goals' conditions and the
// actions' preconditions and effects compile against that schema; a cost
// of 0 is 1. It returns an error for text the expression language
// refuses; unlike engine.Compile it does not check the kinds of values.
func Lower(s Spec) (*goap.Problem, error) {
	sc := expr.NewSchema()
	var init goap.State
	for _, v := range s.State {
		sc.Intern(v.Name)
		init = append(init, v.Value)
	}
	syntax := make([]*expr.EffectSyntax, len(s.Actions))
	for i, a := range s.Actions {
		es, err := expr.ParseEffect(a.Effects)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", a.Name, err)
		}
		syntax[i] = es
		for _, t := range es.Targets() {
			sc.Intern(t)
		}
	}
	pr := &goap.Problem{Schema: sc}
	for i, g := range s.Goals {
		c, err := expr.CompileCondition(g.Condition, sc)
		if err != nil {
			return nil, fmt.Errorf("goal %s: %w", g.Name, err)
		}
		pr.Goals = append(pr.Goals, &goap.Goal{Name: g.Name, Index: i, Condition: c})
	}
	for i, a := range s.Actions {
		pre, err := expr.CompileCondition(a.Pre, sc)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", a.Name, err)
		}
		eff, err := syntax[i].Compile(sc)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", a.Name, err)
		}
		cost := a.Cost
		if cost == 0 {
			cost = 1
		}
		la := goap.Action{Name: a.Name, Index: i, Pre: pre, Effects: eff, Cost: cost, NoRerun: a.NoRerun}
		for _, f := range a.Fulfills {
			for _, g := range pr.Goals {
				if g.Name == f {
					la.Fulfills = append(la.Fulfills, g)
				}
			}
		}
		pr.Actions = append(pr.Actions, la)
	}
	for len(init) < sc.Len() {
		init = append(init, expr.Value{})
	}
	pr.Initial = init
	return pr, nil
}

// ByPriority returns pr's goals highest priority first, declaration order
// among equals, as engine.Planner plans them; prio is s's.
func ByPriority(pr *goap.Problem, s Spec) []*goap.Goal {
	goals := slices.Clone(pr.Goals)
	slices.SortStableFunc(goals, func(a, b *goap.Goal) int { return s.Goals[b.Index].Priority - s.Goals[a.Index].Priority })
	return goals
}

// BruteForce returns the cheapest plan for g from st of at most depth
// steps that is valid step by step and reaches the goal (its condition
// holds, or its last step fulfills the goal), the first in declaration
// order among the cheapest (depth-first search in declaration order
// visits plans in that order), and whether one exists. Actions whose skip
// entry is true are left out; a NoRerun action runs at most once.
func BruteForce(pr *goap.Problem, g *goap.Goal, st goap.State, depth int, skip []bool) ([]int, float64, bool) {
	var best []int
	bestCost, ok := 0.0, false
	path := []int{}
	var walk func(st goap.State, cost float64)
	walk = func(st goap.State, cost float64) {
		done := g.Condition.Eval(st) || len(path) > 0 && pr.Actions[path[len(path)-1]].Serves(g)
		if done && (!ok || cost < bestCost) {
			best, bestCost, ok = append([]int(nil), path...), cost, true
		}
		if len(path) == depth {
			return
		}
		for i := range pr.Actions {
			a := &pr.Actions[i]
			if skip != nil && skip[i] || a.NoRerun && slices.Contains(path, i) || !a.Pre.Eval(st) {
				continue
			}
			next := st.Clone()
			if err := a.Effects.Apply(next, st); err != nil {
				continue
			}
			path = append(path, i)
			walk(next, cost+a.Cost)
			path = path[:len(path)-1]
		}
	}
	walk(st, 0)
	return best, bestCost, ok
}

// Reaches reports whether a plan of at most depth steps reaches g from st,
// as BruteForce's third result does, but walks breadth first and visits
// each state once (with the NoRerun actions run so far): it finds no
// cheapest plan, and stays quick where the plans are long and
// BruteForce's walk, which visits every path, would take hours.
func Reaches(pr *goap.Problem, g *goap.Goal, st goap.State, depth int, skip []bool) bool {
	type node struct {
		st   goap.State
		used string // byte i is 1 once the NoRerun action i ran
	}
	seen := map[string][]node{}
	first := func(n node) bool {
		key := fmt.Sprint(n.st) + "|" + n.used
		for _, o := range seen[key] {
			if slices.Equal(o.st, n.st) {
				return false
			}
		}
		seen[key] = append(seen[key], n)
		return true
	}
	if g.Condition.Eval(st) {
		return true
	}
	level := []node{{st, string(make([]byte, len(pr.Actions)))}}
	first(level[0])
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []node
		for _, n := range level {
			for i := range pr.Actions {
				a := &pr.Actions[i]
				if skip != nil && skip[i] || a.NoRerun && n.used[i] == 1 || !a.Pre.Eval(n.st) {
					continue
				}
				after := n.st.Clone()
				if err := a.Effects.Apply(after, n.st); err != nil {
					continue
				}
				if g.Condition.Eval(after) || a.Serves(g) {
					return true
				}
				used := n.used
				if a.NoRerun {
					used = used[:i] + "\x01" + used[i+1:]
				}
				if m := (node{after, used}); first(m) {
					next = append(next, m)
				}
			}
		}
		level = next
	}
	return false
}

// Replay applies the actions of path to a copy of st in order and returns
// the state after them, or an error naming the first step whose
// precondition fails or whose effects cannot apply.
func Replay(pr *goap.Problem, st goap.State, path []int) (goap.State, error) {
	st = st.Clone()
	for k, i := range path {
		a := &pr.Actions[i]
		if !a.Pre.Eval(st) {
			return nil, fmt.Errorf("step %d (%s): precondition %q fails in %v", k, a.Name, a.Pre.Source(), st)
		}
		next := st.Clone()
		if err := a.Effects.Apply(next, st); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", k, a.Name, err)
		}
		st = next
	}
	return st, nil
}
