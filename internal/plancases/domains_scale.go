package plancases

import (
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Synthetic is the layered domain of Synthetic100 generalised to n actions
// (n >= depth) and a plan of depth steps. Flags p0..p{depth} (p0 true) and
// counters n0..n4; goal p{depth}. Actions 0..depth-1 are "step1".."step{depth}"
// (pre p{k-1}, effect p{k} = true, cost 1): the only cheapest plan. The
// other n - depth are distractors, every one relevant to the goal, by j % 4
// with a = j % depth: "skip" (pre p{a}, sets p{min(a+2, depth)}, cost 3),
// "undo" (pre p{a+1}, clears p{a}, cost 1), "noise" (pre p{a}, sets p{a}
// and counts n{j%5} up, cost 1) and "side" (pre p{a} && !p{(a+3)%(depth+1)},
// sets p{(a+1)%(depth+1)}, cost 2). Synthetic(100, 6) is Synthetic100. The
// case's depth limit is depth.
func Synthetic(n, depth int) PlannerCase {
	p := func(i int) string { return "p" + strconv.Itoa(i) }
	state := []engine.Var{{Name: p(0), Value: expr.BoolValue(true)}}
	for i := 1; i <= depth; i++ {
		state = append(state, engine.Var{Name: p(i), Value: expr.BoolValue(false)})
	}
	for i := 0; i < 5; i++ {
		state = append(state, engine.Var{Name: "n" + strconv.Itoa(i), Value: expr.NumberValue(0)})
	}
	var actions []engine.ActionSpec
	for k := 1; k <= depth; k++ {
		actions = append(actions, engine.NewAction("step"+strconv.Itoa(k)).Pre(p(k-1)).Effects(p(k)+" = true").Spec())
	}
	for j := depth; j < n; j++ {
		a := j % depth
		name := strconv.Itoa(j)
		var b *engine.ActionBuilder
		switch j % 4 {
		case 0:
			b = engine.NewAction("skip" + name).Pre(p(a)).Effects(p(min(a+2, depth)) + " = true").Cost(3)
		case 1:
			b = engine.NewAction("undo" + name).Pre(p(a + 1)).Effects(p(a) + " = false")
		case 2:
			c := "n" + strconv.Itoa(j%5)
			b = engine.NewAction("noise" + name).Pre(p(a)).Effects(c + " = " + c + " + 1, " + p(a) + " = true")
		default:
			b = engine.NewAction("side" + name).Pre(p(a) + " && !" + p((a+3)%(depth+1))).Effects(p((a+1)%(depth+1)) + " = true").Cost(2)
		}
		actions = append(actions, b.Spec())
	}
	name := "synthetic" + strconv.Itoa(n) + "x" + strconv.Itoa(depth)
	return PlannerCase{Name: name, MaxDepth: depth, Role: engine.RoleSpec{
		Name:    name,
		State:   state,
		Goals:   []engine.GoalSpec{engine.NewGoal("top", p(depth), engine.Normal)},
		Actions: actions,
	}}
}

// MazeFacts is the maze of Maze in the other encoding: one boolean fact per
// location ("at_A" .. "at_Z", "at_X1", ...; only at_A true) instead of one
// loc variable. Each move "A-B" has pre at_A and effects at_A = false,
// at_B = true, cost 1; goal at_Z at depth 30; the plan is the same 25-step
// chain A-B ... Y-Z. This is the encoding of one fact per location that
// other GOAP libraries' maze benchmarks use.
func MazeFacts() PlannerCase {
	var locs []string
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			locs = append(locs, l)
		}
	}
	var actions []engine.ActionSpec
	for _, m := range strings.Fields(MazeMoves) {
		from, to, _ := strings.Cut(m, "-")
		add(from)
		add(to)
		actions = append(actions, engine.NewAction(m).Pre("at_"+from).Effects("at_"+from+" = false, at_"+to+" = true").Spec())
	}
	var state []engine.Var
	for _, l := range locs {
		state = append(state, engine.Var{Name: "at_" + l, Value: expr.BoolValue(l == "A")})
	}
	return PlannerCase{Name: "maze_facts", MaxDepth: 30, Role: engine.RoleSpec{
		Name:    "MazeFacts",
		State:   state,
		Goals:   []engine.GoalSpec{engine.NewGoal("exit", "at_Z", engine.Normal)},
		Actions: actions,
	}}
}

// ScaleCases lists the synthetic domains of the scaling benchmarks: 10, 100
// and 1,000 actions at depths 3, 6 and 10.
func ScaleCases() []PlannerCase {
	var out []PlannerCase
	for _, d := range []int{3, 6, 10} {
		for _, n := range []int{10, 100, 1000} {
			out = append(out, Synthetic(n, d))
		}
	}
	return out
}
