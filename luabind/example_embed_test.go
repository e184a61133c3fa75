package luabind_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// A game loads a Lua role, gives its agents host methods, and ticks the
// world each frame. A host method that answers at once sets
// HostCall.Results, which the script receives as return values; one that
// takes ticks returns false until it is done, and the body waits.
func ExampleRuntime_LoadDomain() {
	rt := luabind.NewRuntime(luabind.Options{
		ScriptsDir: filepath.Join("testdata", "examples"),
		Host: map[string]luabind.HostFunc{
			// local where, steps = npc:lookup("parcel")
			"lookup": func(c *luabind.HostCall) (bool, error) {
				c.Results = []expr.Value{expr.StringValue("the mill"), expr.NumberValue(3)}
				return true, nil
			},
			// npc:walk(steps): one step per tick.
			"walk": func(c *luabind.HostCall) (bool, error) {
				if c.First {
					c.Memo = 0.0
				}
				steps, _ := c.Args[0].AsNumber()
				done := c.Memo.(float64)
				if !c.First {
					done++
					c.Memo = done
				}
				return done >= steps, nil
			},
		},
	})
	defer rt.Close()
	d, err := rt.LoadDomain("courier.lua")
	if err != nil {
		panic(err) // every problem of the script, one per line, as file:line:col: message
	}
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		fmt.Println(e.Tick, strings.Join(strings.Fields(e.Kind.String()+" "+e.Action+" "+printed(e)), " "))
	}
	w.Add(engine.NewAgent("kit", d))
	for i := 0; i < 6; i++ {
		w.Tick(1.0 / 60)
	}
	// Output:
	// 1 plan
	// 1 start deliver
	// 1 print kit parcel at the mill, 3 steps
	// 4 finish deliver
	// 5 idle
}

func printed(e record.Event) string {
	if e.Kind == record.EventPrint {
		return e.Reason
	}
	return ""
}

// Reload swaps a changed script into running agents, keeping their
// state; a script that does not load leaves the old one running.
func ExampleRuntime_Reload() {
	dir, err := os.MkdirTemp("", "moonmind-reload")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	write := func(step string) {
		src := `return { name = "Counter", state = { n = 0 },
  decide = "utility",
  actions = { { name = "count", utility = { value = 1 }, run = function(npc) npc.state.n = npc.state.n + ` + step + ` end } } }`
		if err := os.WriteFile(filepath.Join(dir, "counter.lua"), []byte(src), 0o644); err != nil {
			panic(err)
		}
	}
	write("1")
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: dir})
	defer rt.Close()
	d, err := rt.LoadDomain("counter.lua")
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(1)
	a := engine.NewAgent("c", d)
	w.Add(a)
	w.Tick(0.1)
	w.Tick(0.1)
	fmt.Println("before:", a.Get("n"))

	write("10")
	n, err := rt.Reload("counter.lua", w.Agents)
	fmt.Println("reloaded", n, "agent(s)", err)
	w.Tick(0.1)
	fmt.Println("after:", a.Get("n"))

	write("oops +")
	_, err = rt.Reload("counter.lua", w.Agents)
	fmt.Println("broken script refused:", err != nil)
	w.Tick(0.1)
	fmt.Println("still running:", a.Get("n"))
	// Output:
	// before: 2
	// reloaded 1 agent(s) <nil>
	// after: 12
	// broken script refused: true
	// still running: 22
}

// A role's plans react to goals and beliefs: a goal_added plan runs as an
// intention (a coroutine) that may wait, and the belief it changes starts
// the belief_added plan.
func Example_reactivePlans() {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Join("testdata", "examples")})
	defer rt.Close()
	d, err := rt.LoadDomain("bell.lua")
	if err != nil {
		panic(err)
	}
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPrint {
			fmt.Println(e.Tick, e.Reason)
		}
	}
	a := engine.NewAgent("bell", d)
	w.Add(a)
	for i := 0; i < 4; i++ {
		w.Tick(0.1)
	}
	if err := a.Achieve(reactive.GoalNamed("ring")); err != nil {
		panic(err)
	}
	for i := 0; i < 4; i++ {
		w.Tick(0.1)
	}
	// Output:
	// 3 bell rung 1 time(s)
	// 7 bell rung 2 time(s)
}
