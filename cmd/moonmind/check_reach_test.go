package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// TestCheckNamesAGoalNoStateReaches: the farmer starts fed, so planning
// from its initial state finds nothing to do; once its sensor makes it
// hungry no action can feed it, since farming needs seeds and only a
// crop gives seeds. check names the goal once, with the loop's variables,
// and not each action of the loop again.
func TestCheckNamesAGoalNoStateReaches(t *testing.T) {
	f := gateRole("seedless.lua")
	out, _, code := runMain("check", f)
	assert.Equal(t, 1, code)
	assert.Equal(t, f+`:13:21: warning: goal "fed": no chain of actions reaches it from any state the role can be in: `+
		`each action it needs ("farm", "save_seeds", "cook" and "eat") waits for one of them to run first, so none can start `+
		`(seeds stays 0, crops stays 0, food stays 0); give seeds, crops or food a starting value that lets the chain begin, `+
		`or change it in an action, a body or a sensor that does not need it (when the game sets it, name this finding in check_ignore)`+"\n", out)

	// One seed to start with mends it.
	fixed := filepath.Join(t.TempDir(), "seeded.lua")
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(fixed, []byte(replaceOnce(t, string(src), "seeds = 0 }", "seeds = 1 }")), 0o644))
	out, _, code = runMain("check", fixed)
	assert.Equal(t, 0, code, out)
	assert.Equal(t, fixed+": ok: role Farmer, 4 state variables, 1 goals, 4 actions, 1 sensors, 0 plans, decide goap\n", out)
}

// TestCheckLetsAPreconditionWaitForASensor: a goal with no plan from the
// initial state is no finding when the precondition that blocks it reads
// what a sensor writes: the world moves it.
func TestCheckLetsAPreconditionWaitForASensor(t *testing.T) {
	f := gateRole("guard.lua")
	out, _, code := runMain("check", f)
	assert.Equal(t, 0, code, out)
	assert.Equal(t, f+": ok: role Guard, 2 state variables, 1 goals, 1 actions, 1 sensors, 0 plans, decide goap\n", out)

	out, _, code = runMain("plan", f)
	assert.Equal(t, 1, code, "no plan from the initial state: %s", out)
}

// TestCheckNamesDeadActions: in a role that picks by utility, an action
// whose precondition nothing can make true is named at its precondition;
// one that waits on a variable the role never writes (the game's) is not.
// The finding is silenced by its name like any other.
func TestCheckNamesDeadActions(t *testing.T) {
	f := gateRole("tired.lua")
	out, _, code := runMain("check", f)
	assert.Equal(t, 1, code)
	want := f + `:11:22: warning: action "rest" can never run: its precondition "tired > 0" holds in no state the role can reach ` +
		`(tired stays 0, and only this action changes it): give tired a starting value that lets the chain begin, ` +
		`or change it in an action, a body or a sensor that does not need it (when the game sets it, name this finding in check_ignore)`
	assert.Equal(t, want+"\n", out)

	src, err := os.ReadFile(f)
	require.NoError(t, err)
	dir := t.TempDir()
	silenced := filepath.Join(dir, "silenced.lua")
	require.NoError(t, os.WriteFile(silenced, []byte(replaceOnce(t, string(src), `decide = "utility",`,
		`decide = "utility", check_ignore = { ["dead-action:rest"] = "the game tires the farmer" },`)), 0o644))
	out, _, code = runMain("check", "--verbose", silenced)
	assert.Equal(t, 0, code, out)
	assert.Equal(t, silenced+":11:22: ignored [dead-action:rest]: the game tires the farmer\n"+
		silenced+": ok: role Farmer, 3 state variables, 0 goals, 2 actions, 0 sensors, 0 plans, decide utility\n", out)

	// A sensor that tires the farmer (the needs pattern) mends it.
	sensed := filepath.Join(dir, "sensed.lua")
	require.NoError(t, os.WriteFile(sensed, []byte(replaceOnce(t, string(src), `decide = "utility",`,
		`decide = "utility", sensors = { { name = "day", every = 1, run = function(npc) npc.state.tired = npc.state.tired + 1 end } },`)), 0o644))
	out, _, code = runMain("check", sensed)
	assert.Equal(t, 0, code, out)
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	i := strings.Index(s, old)
	require.GreaterOrEqual(t, i, 0, "%q in the source", old)
	return s[:i] + new + s[i+len(old):]
}

// TestReachHolds: the three-valued reading of a condition over the
// states a role can reach, with the rule that a variable that stays
// missing makes the whole condition false (also under "not").
func TestReachHolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.lua")
	require.NoError(t, os.WriteFile(path, []byte(`return {
  name = "R",
  state = { fixed = 3, free = 0, owned = false },
  actions = {
    { name = "make", pre = "owned", effects = "owned = true" },
    { name = "ghost", pre = "owned", effects = "lost = 1" },
  },
}
`), 0o644))
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(path)})
	d, err := rt.LoadDomain(path)
	rt.Close()
	require.NoError(t, err)
	r := reachOf(d, newScans())
	cases := []struct {
		cond   string
		want   tri
		reason string
	}{
		{"fixed == 3", maybe, "the role never writes fixed: the game's, so it may change"},
		{"owned", never, "only make writes owned, and make needs owned first"},
		{"!owned", always, "owned stays false"},
		{"owned || free > 1", maybe, "free is the game's"},
		{"owned && free > 1", never, "one false conjunct is enough"},
		{"lost == 1", never, "only ghost writes lost, and it needs owned: lost stays missing"},
		{"!(lost == 1)", never, "a variable that stays missing makes the whole condition false, also under not"},
	}
	for _, c := range cases {
		cond, err := expr.CompileCondition(c.cond, d.Schema)
		require.NoError(t, err, c.cond)
		assert.Equal(t, c.want, r.holds(cond), "%s: %s", c.cond, c.reason)
	}
}
