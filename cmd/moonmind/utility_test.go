package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func utilityScript(name string) string { return filepath.Join("..", "..", "luabind", "testdata", name) }

func TestUtilityJSONBestFirst(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		args   []string
		order  []string
		best   float64
	}{
		{"calm", "rest's value beats eat at hunger 40", nil, []string{"rest", "eat", "flee"}, 0.5291502622129182},
		{"hungry", "hunger 80 makes eat's logistic curve high", []string{"--state", "hunger=80"}, []string{"eat", "rest", "flee"}, 0.9826918999763747},
		{"danger", "flags may come before the file", []string{"--state", "danger=0.9"}, []string{"flee", "rest", "eat"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"utility"}, tc.args...)
			args = append(args, utilityScript("utility_animal.lua"), "--json")
			out, errOut, code := runMain(args...)
			require.Equal(t, 0, code, errOut)
			var got []utilityJSON
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			var order []string
			for _, a := range got {
				order = append(order, a.Action)
			}
			assert.Equal(t, tc.order, order, tc.reason)
			assert.InDelta(t, tc.best, got[0].Score, 1e-12, tc.reason)
		})
	}
}

func TestUtilityJSONConsiderations(t *testing.T) {
	out, errOut, code := runMain("utility", utilityScript("utility_animal.lua"), "--json", "--state", "hunger=50")
	require.Equal(t, 0, code, errOut)
	var raw []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	require.Len(t, raw, 3)
	for _, a := range raw {
		assert.ElementsMatch(t, []string{"action", "score", "considerations"}, keys(a), "the issue's shape")
	}
	var got []utilityJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	var eat utilityJSON
	for _, a := range got {
		if a.Action == "eat" {
			eat = a
		}
	}
	require.Len(t, eat.Considerations, 3)
	h := eat.Considerations[0]
	assert.Equal(t, "hunger", h.Name)
	require.NotNil(t, h.Input)
	assert.Equal(t, 50.0, *h.Input)
	assert.InDelta(t, 0.5, h.Output, 1e-12, "the logistic curve's centre")
	assert.Equal(t, 1.0, h.Weight)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestUtilityText(t *testing.T) {
	out, errOut, code := runMain("utility", soldier, "--state", "ammo=30", "--state", "enemy_visible=true", "--state", "enemy_health=100")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(lines), 3)
	assert.Equal(t, "role Soldier, utility mode multiply", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "1. attack  score "), lines[1])
	assert.Contains(t, out, "has ammo        input 30       output 1        weight 1")
	assert.Contains(t, out, "4. fetchMagazine  score 0\n     hasTag(combat)  input 0        output 0        weight 1",
		"a supply action scores 0 in a combat pick")
}

func TestUtilityNothingApplies(t *testing.T) {
	out, _, code := runMain("utility", utilityScript("utility_idle.lua"), "--json")
	assert.Equal(t, 1, code, "no applicable action is a failure to pick")
	assert.Equal(t, "[]\n", out)
	out, _, code = runMain("utility", utilityScript("utility_idle.lua"))
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "no action applies")
}

func TestUtilityMissingInputIsNull(t *testing.T) {
	out, errOut, code := runMain("utility", utilityScript("utility_idle.lua"), "--json", "--state", "ready=true")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `[{"action":"go","score":0,"considerations":[{"name":"mood","input":null,"output":0,"weight":1}]}]`+"\n", out)
}

func TestUtilityBadInputExits2(t *testing.T) {
	bad := utilityScript("utility_bad.lua")
	tests := []struct {
		name   string
		args   []string
		stderr []string
	}{
		{"bad script", []string{"utility", bad}, []string{
			bad + `:5:3: role: utility_mode must be "average" or "multiply", not "multipy" (did you mean "multiply"?)`,
			bad + `:7:7: role consideration "helth": input "helth" is no state variable (did you mean "health"?)`,
			bad + `:14:11: action "a" consideration "health": unknown curve "sigmoid"; want linear, polynomial, logistic, logit or step`,
		}},
		{"unknown variable", []string{"utility", utilityScript("utility_animal.lua"), "--state", "hungr=3"},
			[]string{`moonmind utility: --state hungr=3: the role has no state variable "hungr" (did you mean "hunger"?)`}},
		{"no file", []string{"utility"}, []string{"moonmind utility: expected one role file, got 0"}},
		{"missing file", []string{"utility", "nope.lua", "--json"}, []string{"nope.lua"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runMain(tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			for _, s := range tc.stderr {
				assert.Contains(t, errOut, s)
			}
		})
	}
}

func TestUtilityMarksRefusedActions(t *testing.T) {
	secured := filepath.Join("..", "..", "luabind", "testdata", "decisions", "secured.lua")
	out, errOut, code := runMain("utility", secured)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "1. Rob  score 0.7233  (refused: needs authority \"crime\", and none is granted)\n")
	assert.Contains(t, out, "2. Beg  score 0.7233  (refused: restricted: no agent may run it)\n")
	assert.Contains(t, out, "3. Work  score 0.7233\n")
	assert.True(t, strings.HasSuffix(out, "an agent with these authorities picks Work\n"), out)

	out, errOut, code = runMain("utility", secured, "--authority", "crime", "--json")
	require.Equal(t, 0, code, errOut)
	var got []utilityJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 3)
	assert.Equal(t, []string{"", "restricted: no agent may run it", ""}, []string{got[0].Refused, got[1].Refused, got[2].Refused},
		"with the authority granted Rob may run; Beg never")
}
