package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var robRole = filepath.Join("testdata", "decisions", "rob.lua")

func TestPlanAuthority(t *testing.T) {
	tests := []struct {
		name, reason string
		args         []string
		code         int
		want         string
	}{
		{name: "without authority", reason: "Rob needs crime: Work is planned; Steal is restricted and dinner has no other way",
			code: 1, want: "role Thief\n" +
				"goal money (high): Work  [cost 5]\n" +
				"goal dinner (normal): no plan: NOT_AUTHORIZED: goal \"dinner\", action \"Steal\": a plan exists only through action \"Steal\", which is restricted\n" +
				"plan: Work  [cost 5]\n"},
		{name: "with authority", reason: "--authority crime lets the cheaper Rob in; no authority grants a restricted action",
			args: []string{"--authority", "crime"}, code: 1, want: "role Thief\n" +
				"goal money (high): Rob  [cost 1]\n" +
				"goal dinner (normal): no plan: NOT_AUTHORIZED: goal \"dinner\", action \"Steal\": a plan exists only through action \"Steal\", which is restricted\n" +
				"plan: Rob  [cost 1]\n"},
		{name: "one goal", reason: "--goal money plans money alone, and it has a plan",
			args: []string{"--goal", "money"}, code: 0, want: "role Thief\ngoal money (high): Work  [cost 5]\nplan: Work  [cost 5]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"plan", robRole}, tc.args...)...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Equal(t, tc.want, out, tc.reason)
		})
	}
}

func TestPlanNamesTheBlockingActionPerGoal(t *testing.T) {
	f := filepath.Join("testdata", "decisions", "armed.lua")
	tests := []struct {
		name, reason string
		args         []string
		code         int
		want         string
	}{
		{name: "no crate", reason: "armed fails at fetchMagazine's at_crate, named; rest is still planned",
			code: 1, want: "role Rifleman\n" +
				`goal armed (high): no plan: UNREACHABLE: goal "armed", action "fetchMagazine", precondition "at_crate": ` +
				`the precondition of "fetchMagazine" never holds, so "reload" ("magazines > 0") can never run` + "\n" +
				"goal rest (normal): sit  [cost 1]\n" +
				"plan: sit  [cost 1]\n"},
		{name: "at a crate", reason: "with at_crate both goals have plans, highest priority first",
			args: []string{"--state", "at_crate=true"}, code: 0, want: "role Rifleman\n" +
				"goal armed (high): fetchMagazine, reload  [cost 2]\n" +
				"goal rest (normal): sit  [cost 1]\n" +
				"plan: fetchMagazine, reload, sit  [cost 3]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"plan", f}, tc.args...)...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Equal(t, tc.want, out, tc.reason)
		})
	}
}

func TestPlanCostsInShortestForm(t *testing.T) {
	f := filepath.Join("testdata", "decisions", "walker.lua")
	out, errOut, code := runMain("plan", f)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "role Walker\ngoal leave (normal): ToDoor, Open  [cost 0.3]\nplan: ToDoor, Open  [cost 0.3]\n", out,
		"0.1 + 0.2 prints 0.3, not 0.30000000000000004")
	out, errOut, code = runMain("why-not", f, "--action", "Open")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "[ToDoor, Open]  [cost 0.3]")
	assert.NotContains(t, out, "0000000")
	out, errOut, code = runMain("run", f, "--ticks", "2")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "plan=[ToDoor, Open] cost=0.3\n")
}

func TestPlanJSONPerGoal(t *testing.T) {
	out, errOut, code := runMain("plan", robRole, "--json")
	require.Equal(t, 1, code, errOut)
	var got planJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, []string{"Work"}, got.Plan)
	require.Len(t, got.Goals, 2)
	assert.Equal(t, "money", got.Goals[0].Goal)
	assert.Nil(t, got.Goals[0].Error)
	require.NotNil(t, got.Goals[1].Error)
	assert.Equal(t, "NOT_AUTHORIZED", got.Goals[1].Error.Reason)
	assert.Equal(t, "Steal", got.Goals[1].Error.Action)
	require.NotNil(t, got.Error)
	assert.Equal(t, "dinner", got.Error.Goal, "the first failure is repeated at the top, as before")
}

func TestRunAuthority(t *testing.T) {
	out, errOut, code := runMain("run", robRole, "--ticks", "6")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `plan        goal=money plan=[Work] cost=5 reason="left out: Rob (action \"Rob\" needs authority \"crime\", and none is granted)"`)
	assert.Contains(t, out, "finish      goal=money action=Work")
	assert.NotContains(t, out, "stuck")

	out, errOut, code = runMain("run", robRole, "--ticks", "2", "--authority", "crime")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(out, "\n")
	assert.True(t, strings.HasSuffix(lines[0], "plan        goal=money plan=[Rob] cost=1"), lines[0])
	assert.Contains(t, out, "finish      goal=money action=Rob")
}

func TestUtilitySeedFormulaFromLua(t *testing.T) {
	out, errOut, code := runMain("utility", filepath.Join("testdata", "decisions", "feast.lua"), "--json")
	require.Equal(t, 0, code, errOut)
	var got []struct {
		Action string  `json:"action"`
		Score  float64 `json:"score"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 2)
	assert.Equal(t, "feast", got[0].Action)
	assert.Equal(t, 2.0, got[0].Score, "(300 - 0 + 100) / 200 = 2: the seed does not clamp utility()")
	assert.Equal(t, 0.8, got[1].Score)
}

func example(name string) string { return filepath.Join("..", "..", "scripts", "examples", name) }

func TestConfAgentsPlan(t *testing.T) {
	tests := []struct {
		name, reason string
		file         string
		args         []string
		goals        map[string][]string // goal -> steps
		failed       map[string]string   // goal -> authority named
	}{
		{name: "ConfPlannerAgent", reason: "the seed's inferred plan, ordered by inputs and outputs; premiumBriefing never in it",
			file: "conf_planner.lua", goals: map[string][]string{"schedule": {"extractAttendeeProfile", "loadCatalog",
				"shortlistSessions", "researchSessions", "assembleSchedule", "confirmSchedule"}}},
		{name: "ConfNetworkingAgent", reason: "the second agent's inferred plan",
			file: "conf_networking.lua", goals: map[string][]string{"networking": {"extractAttendeeProfile", "loadCatalog",
				"shortlistSessions", "researchSessions", "planNetworking"}}},
		{name: "briefing without the authority", reason: "the goal needs the secured briefing: it fails naming conf:premium",
			file: "conf_premium.lua", goals: map[string][]string{"schedule": {"extractAttendeeProfile", "loadCatalog",
				"shortlistSessions", "researchSessions", "assembleSchedule", "confirmSchedule"}},
			failed: map[string]string{"briefing": "conf:premium"}},
		{name: "briefing with the authority", reason: "--authority conf:premium plans the briefing after the schedule",
			file: "conf_premium.lua", args: []string{"--authority", "conf:premium"},
			goals: map[string][]string{"schedule": {"extractAttendeeProfile", "loadCatalog", "shortlistSessions",
				"researchSessions", "assembleSchedule", "confirmSchedule"}, "briefing": {"premiumBriefing"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(append([]string{"plan", example(tc.file), "--json"}, tc.args...)...)
			require.Empty(t, errOut)
			var got planJSON
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			goals, failed := map[string][]string{}, map[string]string{}
			for _, g := range got.Goals {
				if g.Error != nil {
					failed[g.Goal] = g.Error.Authority
					assert.Equal(t, "NOT_AUTHORIZED", g.Error.Reason)
					assert.Equal(t, "premiumBriefing", g.Error.Action)
					continue
				}
				goals[g.Goal] = g.Steps
			}
			assert.Equal(t, tc.goals, goals, tc.reason)
			if tc.failed == nil {
				tc.failed = map[string]string{}
			}
			assert.Equal(t, tc.failed, failed, tc.reason)
			assert.Equal(t, map[bool]int{true: 1, false: 0}[len(tc.failed) > 0], code)
			assert.NotContains(t, got.Goals[0].Steps, "premiumBriefing")
		})
	}
}

func TestConfPlannerRuns(t *testing.T) {
	out, errOut, code := runMain("run", example("conf_planner.lua"), "--ticks", "8")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "finish      goal=schedule action=confirmSchedule\n", "every promise kept: the finish records carry no reason")
	assert.NotContains(t, out, "broken promise")
	assert.NotContains(t, out, "premiumBriefing")
	assert.Contains(t, out, "idle")
}

func TestRunTimingAndExactTime(t *testing.T) {
	out, errOut, code := runMain("run", soldier, "--ticks", "2", "--timing")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `plan        goal=armed plan=\[fetchMagazine, reload\] cost=3 took=[0-9.]+[nµm]?s\n`, out)

	trace := filepath.Join(t.TempDir(), "t.jsonl")
	_, errOut, code = runMain("run", soldier, "--ticks", "50", "--dt", "0.1", "--trace", trace)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"tick":50,"time":4.9,`, "the summary of 50 ticks of 0.1 s is at its last tick, exactly 4.9 s")
	assert.Contains(t, string(data), `"tick":42,"time":4.1,`)
	assert.NotContains(t, string(data), "4.99999")
}

func TestRunTracePickRecords(t *testing.T) {
	f := filepath.Join("testdata", "decisions", "feast.lua")
	for _, timing := range []bool{false, true} {
		trace := filepath.Join(t.TempDir(), "t.jsonl")
		args := []string{"run", f, "--ticks", "1", "--trace", trace}
		if timing {
			args = append(args, "--timing")
		}
		out, errOut, code := runMain(args...)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, timing, strings.Contains(out, "pick        action=feast score=2.000 took="), "the pick line is timed with --timing only")
		data, err := os.ReadFile(trace)
		require.NoError(t, err)
		var pick struct {
			Kind           string `json:"kind"`
			Considerations []struct {
				Name                  string
				Input, Output, Weight float64
			} `json:"considerations"`
			DurationNs int64 `json:"durationNs"`
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, `"kind":"pick"`) {
				require.NoError(t, json.Unmarshal([]byte(line), &pick))
				break
			}
		}
		require.Equal(t, "pick", pick.Kind, "the trace has the pick")
		require.Len(t, pick.Considerations, 1)
		assert.Equal(t, "utility", pick.Considerations[0].Name)
		assert.Equal(t, 300.0, pick.Considerations[0].Input, "value - cost")
		assert.Equal(t, 2.0, pick.Considerations[0].Output, "(300 - 0 + 100) / 200, unclamped")
		assert.Equal(t, 1.0, pick.Considerations[0].Weight)
		assert.Equal(t, timing, pick.DurationNs > 0, "durationNs with --timing only")
	}
}

func TestCheckNotesGoalsWithoutCandidates(t *testing.T) {
	f := filepath.Join("testdata", "decisions", "lonely.lua")
	out, errOut, code := runMain("check", f)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, f+": ok: role Lonely, 2 state variables, 2 goals, 1 actions, 0 sensors, 0 plans, decide goap\n"+
		f+`:5:7: note: goal "rained" has no candidate action (none lists it in fulfills or assigns a variable its condition reads): only the world can make it true`+"\n", out)
}
