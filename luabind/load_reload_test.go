package luabind

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o644))
}

func TestReloadSwapsTheRoleAndKeepsState(t *testing.T) {
	dir := t.TempDir()
	role := filepath.Join(dir, "counter.lua")
	copyFile(t, filepath.Join("testdata", "reload", "counter_v1.lua"), role)
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("counter.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a, b := engine.NewAgent("a", d), engine.NewAgent("b", d)
	w.Add(a)
	w.Add(b)
	for range 5 {
		w.Tick(0.1)
	}
	require.Equal(t, expr.NumberValue(5), a.Get("count"), "version 1 counts by one")

	// A broken file keeps the old version and reports file:line:col.
	copyFile(t, filepath.Join("testdata", "reload", "counter_broken.lua"), role)
	n, err := rt.Reload("counter.lua", w.Agents)
	require.Error(t, err)
	assert.Equal(t, 0, n)
	assert.Contains(t, err.Error(), role+`:6:55: goal "counted" condition: col 10: expected a value`)
	assert.Same(t, d, a.Domain, "the agents kept the old domain")
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(6), a.Get("count"), "version 1 still runs")

	copyFile(t, filepath.Join("testdata", "reload", "counter_v2.lua"), role)
	n, err = rt.Reload("counter.lua", w.Agents)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "both agents carry the role")
	assert.NotSame(t, d, a.Domain)
	assert.Same(t, a.Domain, b.Domain, "the new domain is shared")
	assert.Equal(t, expr.NumberValue(6), a.Get("count"), "state kept by name")
	assert.Equal(t, expr.StringValue("v1"), a.Get("label"), "a kept variable keeps the agent's value, not the new initial one")
	assert.Equal(t, expr.NumberValue(7), a.Get("bonus"), "a new variable takes its initial value")
	w.Tick(0.1)
	assert.Equal(t, expr.NumberValue(106), a.Get("count"), "version 2 counts by a hundred")
}

func TestReloadFollowsExtendsAndModules(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join("testdata", "dsl", "base.lua"), filepath.Join(dir, "base.lua"))
	copyFile(t, filepath.Join("testdata", "dsl", "child.lua"), filepath.Join(dir, "child.lua"))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("child.lua")
	require.NoError(t, err)
	a := engine.NewAgent("a", d)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "base.lua"), []byte(`return { name = "Base", state = { hp = 50, mana = 9 },
  goals = { { name = "safe", condition = "hp > 50" }, { name = "armed", condition = "mana > 0" } } }`), 0o644))
	n, err := rt.Reload("base.lua", []*engine.Agent{a})
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the child read base.lua through extends")
	assert.Equal(t, expr.NumberValue(100), a.Get("hp"), "the agent's value is kept")
	assert.Equal(t, expr.NumberValue(9), a.Get("mana"), "the parent's new variable arrived")
	assert.Nil(t, a.Domain.Action("reload"), "the parent's removed action is gone")
}
