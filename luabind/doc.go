// Package luabind runs moonmind roles written in Lua on gopher-lua.
//
// A Runtime is one sandboxed Lua state. LoadDomain runs role files, reads
// the role tables they return (plain tables or ones built with the helpers
// of require("moonmind")), validates them, reporting every problem at once
// as "file:line:col: message", and compiles them into an engine.Domain
// that every agent with those roles shares:
//
//	rt := luabind.NewRuntime(luabind.Options{
//		ScriptsDir: "scripts",
//		Host: map[string]luabind.HostFunc{ // npc:shoot() in the scripts
//			"shoot": func(c *luabind.HostCall) (bool, error) { fire(c.Agent); return true, nil },
//		},
//	})
//	defer rt.Close()
//	d, err := rt.LoadDomain("soldier.lua")
//	if err != nil {
//		log.Fatal(err) // every problem, one per line
//	}
//	world := engine.NewWorld(1)
//	world.OnEvent = func(e engine.Event) { log.Println(e) }
//	world.Add(engine.NewAgent("s1", d))
//	for {
//		world.Agents[0].Set("enemy_visible", engine.BoolValue(true)) // a sensor of the game
//		world.Tick(1.0 / 60)
//	}
//
// A method a script calls that the Host map lacks fails the action when it
// is called ("npc has no field or method"), not at load time.
//
// Action bodies (run) are coroutines of the runtime's state, resumed once
// per tick; npc:wait, npc:wait_until and the game's host methods yield
// until done, also inside pcall. Sensors and named conditions are plain
// calls. Everything a script runs is under an instruction budget per
// resume or call (Options.InstructionBudget), and scripts see only the
// sandbox described at NewRuntime. Reload swaps a changed file into running
// agents, keeping their state.
//
// A Runtime is not safe for concurrent use: give each worker goroutine its
// own and pin the agents whose domains it loaded to that worker.
package luabind
