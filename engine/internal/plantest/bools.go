package plantest

import (
	"container/heap"
	"math"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
)

// Relaxed draws a small domain of 2 to 5 booleans with a bare variable in
// the goal (the relaxed estimate's shape): 1 to 7 actions with 0 to 2
// literals in their preconditions, 1 or 2 boolean assignments (a literal
// or a copy), costs 1..3, some fulfilling the goal "g".
func Relaxed(t *rapid.T) Spec {
	nb := rapid.IntRange(2, 5).Draw(t, "bools")
	name := func(i int) string { return "b" + strconv.Itoa(i) }
	var state []Var
	for i := range nb {
		state = append(state, Var{name(i), expr.BoolValue(rapid.IntRange(0, 2).Draw(t, "init") == 0)})
	}
	lit := func(label string) string {
		v := name(rapid.IntRange(0, nb-1).Draw(t, label))
		if rapid.IntRange(0, 3).Draw(t, label+"neg") == 0 {
			return "!" + v
		}
		return v
	}
	var actions []Action
	for i := range rapid.IntRange(1, 7).Draw(t, "actions") {
		var pre []string
		for range rapid.IntRange(0, 2).Draw(t, "pre") {
			pre = append(pre, lit("prelit"))
		}
		var effs []string
		seen := map[int]bool{}
		for range rapid.IntRange(1, 2).Draw(t, "effects") {
			v := rapid.IntRange(0, nb-1).Draw(t, "target")
			if seen[v] {
				continue
			}
			seen[v] = true
			switch rapid.IntRange(0, 4).Draw(t, "shape") {
			case 0:
				effs = append(effs, name(v)+" = false")
			case 1:
				effs = append(effs, name(v)+" = "+name(rapid.IntRange(0, nb-1).Draw(t, "src")))
			default:
				effs = append(effs, name(v)+" = true")
			}
		}
		a := Action{Name: "a" + strconv.Itoa(i), Pre: strings.Join(pre, " && "), Effects: strings.Join(effs, ", "),
			Cost: float64(rapid.IntRange(1, 3).Draw(t, "cost"))}
		if rapid.IntRange(0, 6).Draw(t, "fulfills") == 0 {
			a.Fulfills = []string{"g"}
		}
		actions = append(actions, a)
	}
	goal := name(rapid.IntRange(0, nb-1).Draw(t, "goal"))
	if rapid.IntRange(0, 3).Draw(t, "wide") == 0 {
		goal += " && " + lit("goallit")
	}
	return Spec{Name: "R", State: state, Goals: []Goal{{"g", goal, Normal}}, Actions: actions}
}

// Bools draws small domains of boolean facts whose goals are bare
// variables (the relaxed estimate's conjuncts) or their conjunction with
// a number test: preconditions of facts, negated facts, "or" and
// numbers; effects that set, clear or copy facts or count up; costs of 0
// (which means 1) to 3.
func Bools(t *rapid.T) Spec {
	facts := []string{"p", "q", "r", "s"}
	state := []Var{{"n", expr.NumberValue(float64(rapid.IntRange(0, 3).Draw(t, "n")))}}
	for _, f := range facts {
		state = append(state, Var{f, expr.BoolValue(rapid.IntRange(0, 3).Draw(t, f) == 0)})
	}
	fact := func(l string) string { return rapid.SampledFrom(facts).Draw(t, l) }
	var actions []Action
	for i := range rapid.IntRange(1, 4).Draw(t, "actions") {
		var pre string
		switch rapid.IntRange(0, 6).Draw(t, "pre") {
		case 0, 1:
			pre = fact("pf")
		case 2:
			pre = "!" + fact("pf")
		case 3:
			pre = fact("pa") + " || " + fact("pb")
		case 4:
			pre = fact("pa") + " && " + fact("pb")
		case 5:
			pre = "n > " + strconv.Itoa(rapid.IntRange(0, 3).Draw(t, "pn"))
		}
		seen := map[string]bool{}
		var effs []string
		for range rapid.IntRange(1, 2).Draw(t, "effects") {
			f := fact("ef")
			if seen[f] {
				continue
			}
			seen[f] = true
			switch rapid.IntRange(0, 4).Draw(t, "eff") {
			case 0, 1:
				effs = append(effs, f+" = true")
			case 2:
				effs = append(effs, f+" = false")
			case 3:
				effs = append(effs, f+" = "+fact("src"))
			case 4:
				if !seen["n"] {
					seen["n"] = true
					effs = append(effs, "n = n + 1")
				}
			}
		}
		a := Action{Name: "a" + strconv.Itoa(i), Pre: pre, Effects: strings.Join(effs, ", "), Cost: float64(rapid.IntRange(0, 3).Draw(t, "cost"))}
		if rapid.IntRange(0, 5).Draw(t, "fulfills") == 0 {
			a.Fulfills = []string{"g"}
		}
		actions = append(actions, a)
	}
	var goal string
	switch rapid.IntRange(0, 3).Draw(t, "goal") {
	case 0, 1:
		goal = fact("g")
	case 2:
		goal = fact("ga") + " && " + fact("gb")
	case 3:
		goal = fact("ga") + " && n > " + strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "gn"))
	}
	return Spec{Name: "R", State: state, Goals: []Goal{{"g", goal, High}}, Actions: actions}
}

// BoolState returns pr's initial state with its first nb slots, booleans,
// set from bits (bit k for slot k).
func BoolState(pr *goap.Problem, bits, nb int) goap.State {
	st := pr.Initial.Clone()
	for k := range nb {
		st[k] = expr.BoolValue(bits&(1<<k) != 0)
	}
	return st
}

// StateBits is BoolState's inverse: the bits of st's first nb slots.
func StateBits(st goap.State, nb int) int {
	b := 0
	for k := range nb {
		if st[k].Truthy() {
			b |= 1 << k
		}
	}
	return b
}

// OptimalCosts returns the least cost to reach goal g of pr, whose first
// nb slots are all its state, from every state of them (BoolState), by a
// uniform-cost search from each: +Inf when no plan exists at any length.
// A step that fulfills g completes it.
func OptimalCosts(pr *goap.Problem, g *goap.Goal, nb int) ([]float64, error) {
	out := make([]float64, 1<<nb)
	for s := range out {
		dist := map[int]float64{s: 0}
		q := &costQueue{{s, 0}}
		out[s] = math.Inf(1)
		for q.Len() > 0 {
			e := heap.Pop(q).(costEntry)
			if e.cost > dist[e.state] {
				continue
			}
			if e.state == -1 || g.Condition.Eval(BoolState(pr, e.state, nb)) {
				out[s] = e.cost
				break
			}
			st := BoolState(pr, e.state, nb)
			for i := range pr.Actions {
				a := &pr.Actions[i]
				if !a.Pre.Eval(st) {
					continue
				}
				next := st.Clone()
				if err := a.Effects.Apply(next, st); err != nil {
					return nil, err
				}
				n := StateBits(next, nb)
				if a.Serves(g) {
					n = -1 // the step completes the goal
				}
				c := e.cost + a.Cost
				if old, ok := dist[n]; !ok || c < old {
					dist[n] = c
					heap.Push(q, costEntry{n, c})
				}
			}
		}
	}
	return out, nil
}

type costEntry struct {
	state int // bits of the booleans; -1 for "completed by a fulfilling step"
	cost  float64
}

type costQueue []costEntry

func (q costQueue) Len() int           { return len(q) }
func (q costQueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q costQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *costQueue) Push(x any)        { *q = append(*q, x.(costEntry)) }
func (q *costQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}
