package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var crates = filepath.Join("testdata", "objects", "crates.lua")

func TestPlanNamesTheObjectAStepUses(t *testing.T) {
	out, errOut, code := runMain("plan", crates)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "role Fetcher\n"+
		"goal armed (normal): fetch (crate1), reload  [cost 2]\n"+
		"plan: fetch (crate1), reload  [cost 2]\n", out, "crate2 has run out: crate1 is the one fetch would claim")

	out, errOut, code = runMain("plan", crates, "--json")
	require.Equal(t, 0, code, errOut)
	var got planJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, []goalPlanJSON{{Goal: "armed", Steps: []string{"fetch", "reload"}, Objects: []string{"crate1", ""}}}, got.Goals)
}

func TestPlanAroundAClaimedObject(t *testing.T) {
	out, errOut, code := runMain("plan", crates, "--claim", "crate1=blue2")
	assert.Equal(t, 1, code, errOut)
	assert.Equal(t, "role Fetcher\n"+
		`goal armed (normal): no plan: BACKED_OFF: goal "armed", action "fetch": a plan exists only through action "fetch", which uses a crate: the only crate with slots (crate1) is claimed by blue2, the others have run out`+"\n"+
		"plan: none\n", out)
}

func TestPlanClaimErrors(t *testing.T) {
	tests := []struct {
		name, claim, want string
	}{
		{"unknown object", "crate3=blue2", `moonmind plan: --claim crate3=blue2: the role declares no object "crate3" (did you mean "crate1"?)`},
		{"no agent", "crate1", "moonmind plan: --claim crate1: want OBJECT=AGENT, such as crate1=blue2"},
		{"run out", "crate2=blue2", "moonmind plan: --claim crate2=blue2: crate2 offers 0 slot(s), all claimed before"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runMain("plan", crates, "--claim", tc.claim)
			assert.Equal(t, 2, code)
			assert.Equal(t, tc.want, strings.TrimSpace(errOut))
		})
	}
}

func TestWhyNotAClaimedObject(t *testing.T) {
	out, errOut, code := runMain("why-not", crates, "--action", "fetch", "--claim", "crate1=blue2")
	assert.Equal(t, 1, code, errOut)
	assert.Equal(t, "why not fetch (role Fetcher, decide goap)?\n"+
		`- goal armed, which it serves, has no plan: BACKED_OFF: goal "armed", action "fetch": a plan exists only through action "fetch", which uses a crate: the only crate with slots (crate1) is claimed by blue2, the others have run out`+"\n", out)

	out, errOut, code = runMain("why-not", crates, "--action", "fetch")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "why not fetch (role Fetcher, decide goap)?\n- it is chosen: it is the first step of the plan [fetch, reload]  [cost 2]\n", out)
}

func TestRunClaimsTheRoleObjects(t *testing.T) {
	out, errOut, code := runMain("run", crates, crates, "--ticks", "4")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "tick    1  t=  0.000s  Fetcher#1    start       goal=armed action=fetch object=crate1\n")
	assert.Contains(t, out, `tick    1  t=  0.000s  Fetcher#2    interrupt   goal=armed action=fetch reason="crate crate1 was claimed by Fetcher#1 in the same tick (its 1 slot(s) go to the lowest agent IDs)"`)
	assert.Contains(t, out, `tick    2  t=  0.100s  Fetcher#2    plan-failed goal=armed reason="BACKED_OFF: a plan exists only through action \"fetch\", which uses a crate: the only crate with slots (crate1) is claimed by Fetcher#1, the others have run out"`)
	assert.Contains(t, out, "tick    4  t=  0.300s  Fetcher#2    start       goal=armed action=fetch object=crate1\n")
}

func TestCheckObjectKinds(t *testing.T) {
	dir := filepath.Join("testdata", "objects", "faulty")
	tests := []struct {
		file, want string
		code       int
	}{
		{"typo.lua", `typo.lua:8:23: warning: action "fetch" uses a crat, and no object the role declares is of that kind (did you mean "crate"?): it is planned only in a game that adds one`, 1},
		{"none.lua", `none.lua:7:23: note: action "fetch" uses a crate: the role declares no objects (objects = { ... }), so it is planned only in a game that adds a crate`, 0},
		{"offers.lua", `offers.lua:8:7: error: object "crate1": offers failed on its data: ` + filepath.Join(dir, "offers.lua") + `:8: attempt to compare number with nil`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			out, errOut, code := runMain("check", filepath.Join(dir, tc.file))
			assert.Equal(t, tc.code, code, errOut)
			assert.Contains(t, out, filepath.Join(dir, tc.want))
		})
	}
	out, errOut, code := runMain("check", crates)
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, crates+": ok: role Fetcher, 2 state variables, 1 goals, 2 actions, 0 sensors, 0 plans, decide goap\n", out)
}

func TestWhyNotUtilityPickOfAClaimedObject(t *testing.T) {
	medic := filepath.Join("testdata", "objects", "medic.lua")
	out, errOut, code := runMain("why-not", medic, "--action", "heal", "--claim", "medic_blue=blue2", "--claim", "medic_blue=blue3")
	assert.Equal(t, 1, code, errOut)
	assert.Equal(t, "why not heal (role Patient, decide utility)?\n"+
		"- the utility planner does not pick it: it uses a medic, and no medic has a slot free now\n", out)

	out, errOut, code = runMain("why-not", medic, "--action", "heal", "--claim", "medic_blue=blue2")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "- the utility planner picks it, score ", "one slot of two is free")
}
