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
// agents, keeping their state. Runtime.EnableLLM adds npc:llm_plan, which
// asks a language model for a plan off the game loop while the body waits
// (see docs/llm.md).
//
// A role's plans and initial_goals become its domain's reactive layer
// (package engine/bdi): plan bodies run as coroutines like action bodies,
// triggers and guards as read-only callbacks, and bodies of both kinds may
// call npc:believe, forget, achieve, achieve_with_result, also_achieve,
// wait_event, tell and print (docs/reactive-plans.md).
//
// What the budget covers: it counts Lua VM instructions, including those of
// Lua functions that built-ins call back (a string.gsub or table.sort
// callback, a metamethod), so a string.gsub with a Lua callback over a
// 1,000,000-character string stops at the budget like a loop. It does not
// see time spent inside one built-in Go call (a pattern match, string.rep,
// table.concat, string.format, string.upper): such a call cannot be
// interrupted, and Options.TimeBudget cannot stop it either. The sandbox
// bounds those calls instead: a string longer than Options.MaxStringBytes
// is refused before it is built by string.rep, string.format, string.gsub
// (whatever the replacement is) and table.concat and the .. operator;
// string.format refuses widths and precisions of more than two digits and
// Go-only directives; and string.find, match, gmatch and gsub refuse a
// pattern whose estimated backtracking on the subject exceeds 2e7 steps,
// about a second (n to the power of the number of repetitions that can
// match what follows them, plus one when not anchored with ^, times the
// longest run a repetition backs off over; ".-.-.-.-b" on 100 bytes and "(%w+)=" on
// one 30,000-letter word are refused, "^%s*(.-)%s*$" on a few KB and
// "(%w+)=(%w+)" on megabytes of ordinary text pass). The estimate is a
// guard, not a proof (see patternCost in strlimits.go for a known gap), and
// a refused match fails the action with an error naming file and line.
//
// A Runtime is not safe for concurrent use: give each worker goroutine its
// own and pin the agents whose domains it loaded to that worker.
package luabind
