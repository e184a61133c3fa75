package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var camp = filepath.Join("testdata", "whynot", "camp.lua")

func TestWhyNot(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		args         []string
		code         int
		want         []string // lines the answer must hold
	}{
		{"chosen first", "the first step of the plan is chosen: nothing to explain",
			[]string{camp, "--action", "gather"}, 0,
			[]string{"- it is chosen: it is the first step of the plan [gather, gather, gather, light]  [cost 4]"}},
		{"chosen later", "a later step: its precondition fails now, but the plan leads to it",
			[]string{camp, "--action", "light"}, 0,
			[]string{"- its precondition does not hold: wood >= 3", "    fails: wood >= 3  (wood = 0)",
				"- it is chosen later: step 4 of the plan [gather, gather, gather, light]  [cost 4]"}},
		{"tie", "equal costs go to declaration order",
			[]string{camp, "--action", "forage"}, 1,
			[]string{"- an equally cheap plan declared first won goal warm (ties go to declaration order): [gather, gather, gather, light]  [cost 4]; starting with forage: [forage, gather, gather, light]  [cost 4]"}},
		{"cheaper plan", "both plans with their costs, and the goal it fulfills already holds",
			[]string{camp, "--action", "buyWood"}, 1,
			[]string{"- a cheaper plan won goal warm: [gather, gather, gather, light]  [cost 4]; starting with buyWood: [buyWood, light]  [cost 6]",
				"- goal rich, which it serves, holds already: gold >= 5 is true (gold = 5)"}},
		{"depth limit", "with 2 steps the cheap plan is out of reach",
			[]string{camp, "--action", "gather", "--max-depth", "2"}, 1,
			[]string{"- beyond the depth limit (2 steps): starting with gather, goal warm needs [gather, gather, gather, light]  (4 steps) [cost 4]; the plan that won: [buyWood, light]  [cost 6]"}},
		{"restricted", "restricted, and only the clause that fails is named",
			[]string{camp, "--action", "burnGold"}, 1,
			[]string{"- it is restricted: the executors and the tick refuse it and every plan that holds it",
				"- its precondition does not hold: gold >= 100 && !fire", "    fails: gold >= 100  (gold = 5)",
				"- goal warm is planned as [gather, gather, gather, light]  [cost 4], which does not lead to burnGold"}},
		{"no goal", "an action whose effects no goal reads",
			[]string{camp, "--action", "sing"}, 1,
			[]string{"- the GOAP planner never plans it: it fulfills no goal, assigns no variable a goal's condition reads, and helps no action that does"}},
		{"goal holds", "the one goal it serves holds in that state",
			[]string{camp, "--action", "gather", "--state", "fire=true", "--goal", "warm"}, 1,
			[]string{"- goal warm, which it serves, holds already: fire is true (fire = true)"}},
		{"cyclic", "a goal only a loop could reach: the reason in plain words, without the package's prefix",
			[]string{filepath.Join("testdata", "faulty", "cycle.lua"), "--action", "a"}, 1,
			[]string{`- goal finish, which it serves, has no plan: CYCLIC_PRECONDITION: goal "finish", action "a", precondition "p": ` +
				`"a" needs p, and every action that changes p or q ("b" and "c") needs one of them first, so none of them can go first: ` +
				`give p or q a starting value that lets the chain begin, or add an action (or a sensor) that changes one of them without needing any`}},
		{"scored lower", "both utility breakdowns, consideration by consideration",
			[]string{soldier, "--action", "retreat", "--state", "enemy_visible=true", "--state", "enemy_health=50", "--state", "ammo=30"}, 1,
			[]string{"- it scored lower: retreat 2.754e-05 against attack 0.9877 (multiply mode)", "    attack:",
				"      has ammo  input 30  output 1  weight 1", "    retreat:", "      badly hurt  input 100  output 2.754e-05  weight 1"}},
		{"utility pick", "the utility pick is chosen in hybrid when no goal needs a plan",
			[]string{soldier, "--action", "attack", "--state", "enemy_visible=true", "--state", "enemy_health=50", "--state", "ammo=30"}, 0,
			[]string{"- the utility planner picks it, score 0.9877:"}},
		{"hybrid goals first", "in hybrid a goal with a plan comes before the utility planner",
			[]string{soldier, "--action", "attack"}, 1,
			[]string{"    fails: enemy_visible  (enemy_visible = false)", "    fails: ammo > 0  (ammo = 0)",
				"- decide is hybrid and a goal has a plan, so the utility planner is not asked; were it asked:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"why-not"}, tc.args...)...)
			assert.Equal(t, tc.code, code, tc.reason+"\n"+out+errOut)
			lines := strings.Split(out, "\n")
			for _, w := range tc.want {
				assert.Contains(t, lines, w, tc.reason+"\n"+out)
			}
		})
	}
}

func TestWhyNotBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{camp, "--action", "gater"}, "moonmind why-not: --action gater: the role has no action \"gater\" (did you mean \"gather\"?)\n"},
		{[]string{camp, "--action", "gather", "--goal", "wram"}, "moonmind why-not: --goal wram: the role has no goal \"wram\" (did you mean \"warm\"?)\n"},
		{[]string{camp}, "moonmind why-not: --action NAME is required\n"},
		{[]string{camp, "--action", "gather", "--max-depth", "0"}, "moonmind why-not: --max-depth must be in 1..256, not 0\n"},
	} {
		out, errOut, code := runMain(append([]string{"why-not"}, tc.args...)...)
		assert.Equal(t, 2, code)
		assert.Empty(t, out)
		assert.Equal(t, tc.want, errOut)
	}
}

// TestWhyNotGolden answers for every action of the shipped soldier and of
// the camp role, and compares the whole text with the golden file.
func TestWhyNotGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range []struct {
		file    string
		actions []string
		extra   []string
	}{
		{camp, []string{"gather", "forage", "buyWood", "light", "mine", "burnGold", "sing"}, nil},
		{soldier, []string{"fetchMagazine", "reload", "attack", "takeCover", "retreat"}, nil},
		{soldier, []string{"fetchMagazine", "reload", "attack", "takeCover", "retreat"},
			[]string{"--state", "enemy_visible=true", "--state", "enemy_health=50", "--state", "ammo=30"}},
	} {
		for _, a := range c.actions {
			args := append([]string{"why-not", filepath.ToSlash(c.file), "--action", a}, c.extra...)
			out, errOut, code := runMain(args...)
			require.Empty(t, errOut)
			fmt.Fprintf(&b, "$ moonmind %s\n%sexit %d\n\n", strings.Join(args, " "), out, code)
		}
	}
	checkGolden(t, filepath.Join("whynot", "answers.golden"), b.String())
}
