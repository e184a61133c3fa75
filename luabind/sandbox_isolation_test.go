package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// isolationWorld runs victims (and, when hostile, three hostile agents
// among them) in one runtime for ticks ticks and returns each victim's
// trace, one line per event.
func isolationWorld(t *testing.T, victims int, hostile bool, ticks int) (map[string][]string, map[string]string) {
	t.Helper()
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "isolation")})
	defer rt.Close()
	load := func(file string) *engine.Domain {
		d, err := rt.LoadDomain(file)
		require.NoError(t, err, file)
		return d
	}
	victim := load("victim.lua")
	w := engine.NewWorld(1)
	traces := map[string][]string{}
	failed := map[string]string{} // the first failure of each hostile agent
	w.OnEvent = func(e record.Event) {
		if _, ok := traces[e.Agent]; ok {
			traces[e.Agent] = append(traces[e.Agent], e.String())
		} else if _, ok := failed[e.Agent]; !ok && e.Kind == record.EventFail {
			failed[e.Agent] = e.Reason
		}
	}
	hostiles := map[int]string{0: "erroring.lua", victims / 2: "looping.lua", victims - 1: "allocating.lua"}
	for i := range victims {
		if f, ok := hostiles[i]; ok && hostile {
			w.Add(engine.NewAgent("hostile-"+f, load(f)))
		}
		name := fmt.Sprintf("victim%02d", i)
		traces[name] = []string{}
		w.Add(engine.NewAgent(name, victim))
	}
	for range ticks {
		w.Tick(0.1)
	}
	return traces, failed
}

// TestHostileAgentsDoNotChangeOthers: 47 agents ticked next to 3 hostile
// ones (one erroring every time it runs, one looping, one allocating until
// its memory limit) make exactly the traces they make alone.
func TestHostileAgentsDoNotChangeOthers(t *testing.T) {
	alone, _ := isolationWorld(t, 47, false, 40)
	mixed, failed := isolationWorld(t, 47, true, 40)
	dir := filepath.Join("testdata", "isolation")
	assert.Equal(t, filepath.Join(dir, "erroring.lua")+":6: always broken", failed["hostile-erroring.lua"])
	assert.Contains(t, failed["hostile-looping.lua"], filepath.Join(dir, "looping.lua")+":6: instruction budget exceeded")
	assert.Contains(t, failed["hostile-allocating.lua"], filepath.Join(dir, "allocating.lua")+":13: memory limit exceeded (64 MiB)")
	require.Len(t, alone, 47)
	for name, trace := range alone {
		require.NotEmpty(t, trace, name)
		assert.Equal(t, trace, mixed[name], name)
	}
	assert.Contains(t, alone["victim00"][len(alone["victim00"])-1], "idle", "the victims finish their work")
}

// TestCrossAgentAttemptsAreRefused: agents that share a role file (and so
// its top-level locals) try to resume the victim's coroutine, wait for its
// host call and patch a shared module; each attempt fails in the
// attacker's trace with a clear error, and the victim is untouched.
func TestCrossAgentAttemptsAreRefused(t *testing.T) {
	calls := map[string]int{}
	rt := NewRuntime(Options{
		ScriptsDir: filepath.Join("testdata", "isolation"),
		Host: map[string]HostFunc{"move_to": func(c *HostCall) (bool, error) {
			calls[c.Agent.Name]++
			return calls[c.Agent.Name] >= 3, nil
		}},
	})
	defer rt.Close()
	d, err := rt.LoadDomain("shared.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var events []record.Event
	w.OnEvent = func(e record.Event) { events = append(events, e) }
	agents := map[string]*engine.Agent{}
	for _, name := range []string{"victim", "attack_resume", "attack_host", "attack_module", "attack_nested"} {
		agents[name] = engine.NewAgent(name, d)
		w.Add(agents[name])
	}
	for range 20 {
		w.Tick(0.1)
	}
	fails := map[string]string{}
	for _, e := range events {
		if e.Kind == record.EventFail {
			if _, ok := fails[e.Agent]; !ok {
				fails[e.Agent] = e.Reason
			}
		}
	}
	file := filepath.Join("testdata", "isolation", "shared.lua")
	assert.Equal(t, map[string]string{
		"attack_resume": file + `:10: coroutine.resume: this coroutine belongs to agent "victim", not to agent "attack_resume" that runs now: an agent can resume only its own coroutines`,
		"attack_host":   file + `:13: npc:move_to: this host call was started by agent "victim", not by agent "attack_host": an agent can wait only for its own host calls`,
		"attack_module": file + `:16: greet: the module "common" is read-only: every agent of the role shares it (copy what you need into a local table)`,
		"attack_nested": file + `:19: 1: the module "common" is read-only: every agent of the role shares it (copy what you need into a local table)`,
	}, fails)
	v := agents["victim"]
	assert.Equal(t, expr.BoolValue(true), v.Get("done"), "the victim finished")
	assert.Equal(t, expr.NumberValue(1), v.Get("count"), "only the victim resumed its coroutine")
	assert.Equal(t, expr.StringValue("hello victim"), v.Get("greeting"), "the module's function is the original")
	assert.Equal(t, expr.NumberValue(1), v.Get("first"), "the module's nested table is unchanged")
	assert.Equal(t, map[string]int{"victim": 1}, calls, "the host call ran once, for the victim; nobody waited on it")
}

// TestModulesAreLoadedPerRoleFile: a module required by one role file,
// directly and through another module, is one copy; another role file
// gets its own, so its agents cannot reach the first role's through the
// module's state. The module's top level runs once per role file.
func TestModulesAreLoadedPerRoleFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("counter.lua", `local n = 0
		local M = {}
		function M.next() n = n + 1 return n end
		return M`)
	write("wrapper.lua", `return { counter = require("counter") }`)
	role := func(name string) string {
		return `local counter = require("counter")
			local wrapper = require("wrapper")
			assert(wrapper.counter == counter, "one copy per role file")
			counter.next()
			return { name = "` + name + `", state = { n = counter.next() },
				goals = { { name = "g", condition = "n > 0" } }, actions = {} }`
	}
	write("a.lua", role("A"))
	write("b.lua", role("B"))
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	for _, f := range []string{"a.lua", "b.lua"} {
		d, err := rt.LoadDomain(filepath.Join(dir, f))
		require.NoError(t, err, f)
		a := engine.NewAgent("x", d)
		assert.Equal(t, expr.NumberValue(2), a.Get("n"), "%s counted from its own copy", f)
	}
}
