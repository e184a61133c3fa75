// Package plancases holds the planning problems that the benchmarks (the
// bench module) and the engine's own tests share: the soldier, a deep
// chain, a maze in two encodings and synthetic domains of any size.
package plancases

import (
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// PlannerCase is a domain and a depth limit for a planner benchmark.
type PlannerCase struct {
	Name     string
	Role     engine.RoleSpec
	MaxDepth int
}

// Soldier is a soldier who must arm himself, the two-action role of the
// TnsAI planning document (docs/semantics.md): ammo = 0, magazines = 0;
// the plan is [fetchMagazine, reload].
func Soldier() PlannerCase {
	return PlannerCase{Name: "soldier", MaxDepth: engine.DefaultMaxDepth, Role: engine.RoleSpec{
		Name:  "Soldier",
		State: []engine.Var{{Name: "ammo", Value: expr.NumberValue(0)}, {Name: "magazines", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("armed", "ammo > 10", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("fetchMagazine").Effects("magazines = magazines + 1").Spec(),
			engine.NewAction("reload").Pre("magazines > 0").Effects("ammo = 30, magazines = magazines - 1").Fulfills("armed").Spec(),
		},
	}}
}

// Deep is the forage domain that the GOAP library kelindar/goap also
// benchmarks (bench/README.md compares the two): hunger = 80, food = 0,
// tired = 0; goal food > 80 at depth 20; the plan has 12 steps (9 Forage,
// 3 Sleep).
func Deep() PlannerCase {
	return PlannerCase{Name: "deep", MaxDepth: 20, Role: engine.RoleSpec{
		Name: "Deep",
		State: []engine.Var{{Name: "hunger", Value: expr.NumberValue(80)}, {Name: "food", Value: expr.NumberValue(0)},
			{Name: "tired", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "food > 80", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("Eat").Pre("food > 0").Effects("hunger = hunger - 50, food = food - 5").Spec(),
			engine.NewAction("Forage").Pre("tired < 50").Effects("tired = tired + 20, food = food + 10, hunger = hunger + 5").Spec(),
			engine.NewAction("Sleep").Pre("tired > 30").Effects("tired = tired - 50").Spec(),
		},
	}}
}

// MazeMoves are the 42 moves of the maze domain, in declaration order.
const MazeMoves = "A-B B-C C-D D-E E-F F-G G-H H-I I-J C-X1 E-X2 G-X3 X1-D X2-F X3-H B-Y1 D-Y2 F-Y3 Y1-C Y2-E " +
	"Y3-G J-K K-L L-M M-N N-O O-P P-Q Q-R R-S S-T T-U U-V V-W W-X X-Y Y-Z U-Z1 W-Z2 Z1-V Z2-X A-Z3"

// Maze is kelindar/goap's maze with the location as one string variable:
// loc = "A", one cost-1 action per
// move (named like "A-B", pre loc == "A", effect loc = "B"); goal
// loc == "Z" at depth 30; the plan is the 25-step chain A-B ... Y-Z.
func Maze() PlannerCase {
	var actions []engine.ActionSpec
	for _, m := range strings.Fields(MazeMoves) {
		from, to, _ := strings.Cut(m, "-")
		actions = append(actions, engine.NewAction(m).Pre(`loc == "`+from+`"`).Effects(`loc = "`+to+`"`).Spec())
	}
	return PlannerCase{Name: "maze", MaxDepth: 30, Role: engine.RoleSpec{
		Name:    "Maze",
		State:   []engine.Var{{Name: "loc", Value: expr.StringValue("A")}},
		Goals:   []engine.GoalSpec{engine.NewGoal("exit", `loc == "Z"`, engine.Normal)},
		Actions: actions,
	}}
}

// Synthetic100 is a 100-action layered domain at depth 6. Flags p0..p6
// (p0 true) and counters n0..n4; goal p6. Actions 0..5 are "step1".."step6"
// (pre p{k-1}, effect p{k} = true, cost 1): the only cheapest plan. The
// other 94 are distractors, every one relevant to the goal, by j % 4 with
// a = j % 6: "skip" (pre p{a}, sets p{a+2}, cost 3), "undo" (pre p{a+1},
// clears p{a}, cost 1), "noise" (pre p{a}, sets p{a} and counts n{j%5} up,
// cost 1) and "side" (pre p{a} && !p{(a+3)%7}, sets p{(a+1)%7}, cost 2).
func Synthetic100() PlannerCase {
	p := func(i int) string { return "p" + strconv.Itoa(i) }
	state := []engine.Var{{Name: p(0), Value: expr.BoolValue(true)}}
	for i := 1; i <= 6; i++ {
		state = append(state, engine.Var{Name: p(i), Value: expr.BoolValue(false)})
	}
	for i := 0; i < 5; i++ {
		state = append(state, engine.Var{Name: "n" + strconv.Itoa(i), Value: expr.NumberValue(0)})
	}
	var actions []engine.ActionSpec
	for k := 1; k <= 6; k++ {
		actions = append(actions, engine.NewAction("step"+strconv.Itoa(k)).Pre(p(k-1)).Effects(p(k)+" = true").Spec())
	}
	for j := 6; j < 100; j++ {
		a := j % 6
		name := strconv.Itoa(j)
		var b *engine.ActionBuilder
		switch j % 4 {
		case 0:
			b = engine.NewAction("skip" + name).Pre(p(a)).Effects(p(min(a+2, 6)) + " = true").Cost(3)
		case 1:
			b = engine.NewAction("undo" + name).Pre(p(a + 1)).Effects(p(a) + " = false")
		case 2:
			n := "n" + strconv.Itoa(j%5)
			b = engine.NewAction("noise" + name).Pre(p(a)).Effects(n + " = " + n + " + 1, " + p(a) + " = true")
		default:
			b = engine.NewAction("side" + name).Pre(p(a) + " && !" + p((a+3)%7)).Effects(p((a+1)%7) + " = true").Cost(2)
		}
		actions = append(actions, b.Spec())
	}
	return PlannerCase{Name: "synthetic100", MaxDepth: 6, Role: engine.RoleSpec{
		Name:    "Synthetic100",
		State:   state,
		Goals:   []engine.GoalSpec{engine.NewGoal("top", p(6), engine.Normal)},
		Actions: actions,
	}}
}

// PlannerCases lists the planner benchmark domains.
func PlannerCases() []PlannerCase {
	return []PlannerCase{Soldier(), Deep(), Maze(), Synthetic100()}
}
