package goap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResourceHeuristicCountsTheRestorersAMoverNeeds(t *testing.T) {
	pr := lower(t, []tVar{{"hunger", num(80)}, {"food", num(0)}, {"tired", num(0)}}, "food > 80",
		tAct{name: "Eat", pre: "food > 0", eff: "hunger = hunger - 50, food = food - 5"},
		tAct{name: "Forage", pre: "tired < 50", eff: "tired = tired + 20, food = food + 10, hunger = hunger + 5"},
		tAct{name: "Sleep", pre: "tired > 30", eff: "tired = tired - 50"})
	p := newSearcher(pr)
	gs := p.searchGoal(pr.Goals[0])
	require.Len(t, gs.atoms, 1)
	res := gs.atoms[0].incRes
	require.NotNil(t, res, "Forage needs tired < 50 and pushes it by 20; Sleep pulls it by 50")
	tired, ok := pr.Schema.Lookup("tired")
	require.True(t, ok)
	assert.Equal(t, tired, res.slot)
	assert.Equal(t, 20.0, res.step)
	assert.Equal(t, 50.0, res.back)
	assert.Equal(t, 50.0, res.lim)
	assert.True(t, res.strict)

	// From the start: 9 forages (0 -> 90 > 80) and, before the ninth,
	// tired = 160 - 50s < 50 needs s = 3 sleeps: 12 steps, the optimum.
	p.gs = gs
	h, steps := p.heuristic(pr.Initial)
	assert.Equal(t, 12.0, h)
	assert.Equal(t, int32(12), steps)

	names, _, res2, exp := planOf(p, pr.Initial, 20)
	require.Equal(t, Found, res2)
	assert.Equal(t, strings.Fields("Forage Forage Forage Sleep Forage Forage Sleep Forage Forage Forage Sleep Forage"), names)
	assert.Equal(t, 12, exp, "a perfect heuristic expands only the plan's states")
}
