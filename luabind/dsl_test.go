package luabind

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

func TestExtendsMergesChildOverParent(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "dsl")})
	defer rt.Close()
	spec, err := rt.LoadRole("child.lua")
	require.NoError(t, err)

	assert.Equal(t, "Child", spec.Name)
	assert.Equal(t, []string{"reload", "heal", "dash"}, names(spec.Actions, func(a engine.ActionSpec) string { return a.Name }),
		"the parent's actions first, heal overridden in place, dash after")
	assert.Equal(t, 3.0, spec.Actions[1].Cost, "the child's heal won")
	assert.Equal(t, filepath.Join("testdata", "dsl", "base.lua"), spec.Actions[0].Pos.File, "reload keeps its parent's position")
	assert.Equal(t, []string{"armed", "safe"}, names(spec.Goals, func(g engine.GoalSpec) string { return g.Name }))
	assert.Equal(t, engine.Critical, spec.Goals[0].Priority, "the child's armed won")
	assert.Equal(t, "ammo > 20 && enemy_near", spec.Goals[0].Condition)
	state := map[string]expr.Value{}
	for _, v := range spec.State {
		state[v.Name] = v.Value
	}
	assert.Equal(t, map[string]expr.Value{"hp": expr.NumberValue(100), "ammo": expr.NumberValue(0),
		"seen": expr.NumberValue(0), "stamina": expr.NumberValue(3)}, state)
}

func TestConditionsAndSensorsRunInTheTick(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "dsl")})
	defer rt.Close()
	d, err := rt.LoadDomain("child.lua")
	require.NoError(t, err)
	require.Len(t, d.Sensors, 1)
	require.Len(t, d.Conditions, 1)
	a := engine.NewAgent("c", d)
	w := engine.NewWorld(1)
	w.Add(a)
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(1), a.Get("seen"), "the sensor ran on the first tick")
	assert.Equal(t, expr.BoolValue(false), a.Get("enemy_near"), "the condition read the sensor's value")
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(1), a.Get("seen"), "not again before 0.2 s")
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(2), a.Get("seen"))
	assert.Equal(t, expr.BoolValue(true), a.Get("enemy_near"), "the named condition is evaluated on the real state")
}

func TestConditionsCannotChangeState(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "broken", "condition_writes.lua"))
	require.NoError(t, err)
	a := engine.NewAgent("c", d)
	ok, err := d.Conditions[0].Test(a)
	assert.False(t, ok)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "condition_writes.lua:6: npc.state.hp: a condition must not change state")
	assert.Equal(t, expr.NumberValue(100), a.Get("hp"))
}

func TestValidationReportsEveryProblemAtEveryLevel(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	_, err := rt.LoadRole(filepath.Join("testdata", "dsl", "invalid.lua"))
	var ce *engine.CompileError
	require.ErrorAs(t, err, &ce)
	f := filepath.Join("testdata", "dsl", "invalid.lua")
	assert.Equal(t, []string{
		f + `:3:3: role: extends "nosuchrole" names no module in the scripts folder and no role loaded before`,
		f + `:4:3: role: unknown key "sensor" (did you mean "sensors"?)`,
		f + `:7:48: goal "armed": priority must be low, normal, high, critical or a whole number from 1 to 1000000, not 2.5`,
		f + `:8:69: goal "calm": persistent must be true or false, not string`,
		f + `:11:79: action "reload" utility: unknown key "valeu" (did you mean "value"?)`,
		f + `:12:7: action "reload" is declared twice (first at line 11)`,
		f + `:14:18: condition "near" has the name of a state variable; a condition is read by name like one, so rename one of them`,
		f + `:16:21: sensor "see": unknown key "evrey" (did you mean "every"?)`,
		f + `:17:22: sensor "hear": every must be a period in seconds >= 0`,
		f + `:17:34: sensor "hear": run must be a function(npc, dt), not number`,
	}, sortedLines(err.Error()))
}

// sortedLines orders problem lines by line and column.
func sortedLines(s string) []string {
	lines := strings.Split(s, "\n")
	key := func(l string) (int, int) {
		parts := strings.SplitN(l, ":", 4)
		var a, b int
		if len(parts) >= 3 {
			a, b = atoi(parts[1]), atoi(parts[2])
		}
		return a, b
	}
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0; j-- {
			a1, b1 := key(lines[j-1])
			a2, b2 := key(lines[j])
			if a1 < a2 || (a1 == a2 && b1 <= b2) {
				break
			}
			lines[j-1], lines[j] = lines[j], lines[j-1]
		}
	}
	return lines
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return n
		}
		n = n*10 + int(c-'0')
	}
	return n
}
