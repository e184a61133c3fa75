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
//	world.OnEvent = func(e record.Event) { log.Println(e) }
//	world.Add(engine.NewAgent("s1", d))
//	for {
//		world.Agents[0].Set("enemy_visible", expr.BoolValue(true)) // a sensor of the game
//		world.Tick(1.0 / 60)
//	}
//
// A method a script calls that the Host map lacks fails the action when it
// is called ("npc has no field or method", followed by the sorted names of
// the Host map), not at load time.
//
// Action bodies (run) are coroutines of the runtime's state, resumed once
// per tick; npc:wait, npc:wait_until and the game's host methods yield
// until done, also inside pcall (which runs its function in a pooled
// worker coroutine: about 0.4 µs of CPU when the function does not
// yield, against 0.08 µs for stock gopher-lua's pcall, which cannot
// yield; see bench/README.md). Sensors and named conditions are plain
// calls. Scripts see only the sandbox described below and at NewRuntime.
// The waiting methods suspend the body only from its own coroutine:
// inside a coroutine the script made itself (coroutine.wrap,
// coroutine.create) they yield to the script's resume, which receives a
// sleep token (a protected userdata) and the seconds from npc:wait(s),
// nothing from npc:wait_until, while the body goes on in the same tick
// (docs/semantics.md, "Running a plan").
// Reload swaps a changed file into running agents, keeping their state.
// Runtime.EnableLLM adds npc:llm_plan, which asks a language model for a
// plan off the game loop while the body waits (see docs/llm.md).
//
// A role's plans and initial_goals become its domain's reactive layer
// (package engine/bdi): plan bodies run as coroutines like action bodies,
// triggers and guards as read-only callbacks, and bodies of both kinds may
// call npc:believe, forget, achieve, achieve_with_result, also_achieve,
// wait_event, tell and print (docs/reactive-plans.md).
//
// A role's squad table (squad = { enemy_seen = false }) declares the
// variables its agent shares with its squad: state variables named
// "squad.enemy_seen", which conditions name as such and bodies read and
// write as npc.squad.enemy_seen. The game makes the squads (an
// engine.Group of scope "squad", from engine.GroupSpecOf of a member's
// domain) and puts agents in them; a member's write reaches every other
// member from the next tick (docs/coordination.md). A role's objects list
// declares smart objects of its world (name, kind, slots, data and an
// offers function of the data): Runtime.AddObjects adds them to a world
// once, and Runtime.UpdateObjects asks each offers function again after
// the game changes an object's data (ObjectData), so an object can run
// out.
// A role's lod table, lod = { rates = { 60, 10, 2 } }, sets its domain's
// think rates under a world's level of detail (engine.Domain.ThinkRates,
// engine.LOD; docs/lod.md). npc:perceive, npc:lose, npc:recall and
// npc:memories write and read the agent's perception memory
// (perception.Memory; docs/perception.md); conditions and considerations
// read it as memory.<source>.<field>, and plans react to it with on =
// "perceived", "lost" or "forgotten" and a source filter.
//
// # Limits and what they cost
//
// Work. Each resume of a body and each call of a sensor, condition,
// consideration or on_interrupt, and each role file's top level, gets
// Options.InstructionBudget work units (DefaultInstructionBudget,
// 500,000). A Lua VM instruction is one unit (counted by a
// context.Context the VM asks before each instruction, which also reads
// the instruction for the table work below: a few ns of CPU each on top
// of the instruction's own 30-40 ns on the busy 2-core dev box, within
// the noise of bench/README.md's LuaBudget against stock gopher-lua). Built-ins whose cost grows
// with their input or output charge that work before doing it, so a call
// the budget cannot afford never starts: one unit per 64 bytes built,
// copied or scanned by string.rep, the .. operator, table.concat,
// string.format, gsub's result, sub, tostring and print, and one per 8
// bytes of upper, lower and reverse (which build their result a byte at
// a time); 32 units more per conversion of string.format; one unit per 4 items for table.insert and table.remove in the
// middle of a list, unpack, select, string.byte and string.char, and
// n log n of them for table.sort; ten units per subject byte a pattern
// match may scan (string.find, match, gmatch, gsub: gopher-lua's matcher
// costs 250-350 ns per start position), plus its estimated backtracking;
// 512 units per coroutine.create (a whole Lua state of about 12 KB, as
// for each new worker coroutine a pcall needs after a failed one); 16
// units plus one per argument to start a host method (the host's Go work
// runs outside Lua and is the game's to bound); 8 units per read of
// npc.state, npc.facts, npc.squad or npc.name, per read or write of npc.state.x or npc.squad.x
// and per method lookup (npc.wait, also inside npc:wait()) (while the
// agent's own body runs these are table lookups, charged the same as the
// Go call each once was; a method or npc.state lookup that reaches npc
// through another table's __index is charged as a plain table lookup);
// four
// units per value that a table constructor ending in a call or ...
// appends ({ unpack(t) }); a unit per 4 nils that an assignment,
// table.insert or rawset far past a list's end pads the list with (see
// "Lists and sparse keys" below), and one unit per 4 nils that #t, next and the length that insert, remove, sort, unpack
// and concat find scan over (the budget reads the instruction the VM is
// about to run to see the assignment and the #). Functions that built-ins call back
// (a sort comparator, a gsub callback, a metamethod) count their
// instructions too. At 20-50 ns per instruction, a spent default budget
// is 10-25 ms of one core, well under 50 ms (bench's HostileResume
// spends it through 26 different built-ins and host calls: at load 7-10
// every resume stayed within about 50 ms of CPU, the slowest, padding
// and memory bombs whose collection counts, 5-8.6 times a plain loop's
// spent budget; see bench/README.md, "Sandbox"). A spent budget stops the
// script at once (a pcall cannot swallow it) with "instruction budget
// exceeded" at the script's file and line; the action fails, the world
// goes on. Options.TimeBudget adds a wall-clock limit (not deterministic).
//
// Tick budget. On top of each call's own budget, all of one agent's Lua
// in one tick (its sensors, named conditions, triggers, guards,
// wait_event filters, consideration functions, its body's resume, its
// intentions and on_interrupt) shares Options.TickBudget work units
// (DefaultTickBudgetCalls × InstructionBudget, 1,000,000 by default), so
// one agent's tick is bounded at about 20-50 ms of one core however many
// callbacks its scripts make run: without it, 200 belief events whose
// guard each spent most of a budget made one tick take seconds. Each call
// is armed with the smaller of its own budget and what is left of its
// agent's tick, so the VM's per-instruction check is the same as without
// one. Once the tick's budget is spent, the call running stops with
// "tick budget exceeded" at its file and line, the agent's other calls
// that tick fail at once without running ("not run"; a body or an
// intention is not resumed and waits for the next tick), and one
// tick-budget record (record.EventTickBudget) names the agent, what was
// cut and where the tick's work went, by kind of script. The next tick
// starts afresh; the count is in work units, so it is deterministic and
// the same with any number of workers, and agents never share one.
//
// Patterns. Besides their work, string.find, match, gmatch and gsub refuse
// a pattern whose estimated backtracking on the subject exceeds 2e7 steps
// (".-.-.-.-b" on 100 bytes), and one whose recursion could pass 100,000
// levels (gopher-lua's matcher recurses once per character a repetition
// takes, with a few hundred bytes of Go stack each: "(.*)b" on 200,000
// bytes), so one match is bounded in time and memory.
//
// Strings. No built-in builds a string longer than Options.MaxStringBytes
// (DefaultMaxStringBytes, 16 MiB); string.format refuses widths and
// precisions of more than two digits.
//
// Work sized by a script's input. The rule every built-in follows: Go
// work or memory that grows with what a script passes is measured and
// charged before it is done, and refused when it would pass a limit, so
// no single call can allocate more than the limits or run for seconds
// inside one Go call. In particular:
//   - string.gsub measures each string replacement (with its %0-%9
//     captures) before building it: "%0" repeated 2^23 times on a 1 KiB
//     match is refused as an 8 GiB string, unbuilt; reading the
//     replacement costs a unit per 64 bytes for every match.
//   - print and npc:print sum the length of their values first: more
//     than MaxStringBytes joined is refused ("string too long: npc:print
//     would join ..."); the text costs a unit per 64 bytes and counts
//     against the memory limit.
//   - tostring of a value whose __tostring returns a long string, and
//     pcall catching a long error, scan the text once for heap addresses:
//     a unit per 64 bytes (a 16 MiB text costs about half a budget).
//   - error(msg) with a position in front copies msg: charged as a built
//     string. A math function's string argument longer than 64 bytes
//     costs a unit per 8 bytes (it is parsed as a number, a byte at a
//     time); table.sort of strings longer than 64 bytes costs a unit per
//     8 bytes of the longest per comparison; table.getn costs what #t
//     costs.
//   - An error message that leaves Lua (a fail record, a trace line, an
//     error a Go caller gets) is cut to its first 8 KiB, with a note of
//     how many bytes were cut; a script's pcall still gets its own error
//     value whole.
//   - Names that npc methods hand to the engine (goals, beliefs, agents in
//     npc:tell) are at most 1 KiB, and goal tuples at most 1,024 values;
//     a "did you mean" suggestion costs a pass over the name.
//   - A model's reply (npc:llm_plan) costs a unit per 4 values and per 64
//     bytes, and counts against the memory limit, before it becomes Lua
//     tables.
//   - Role files, the files they extend and modules are read only when
//     they are regular files of at most MaxScriptBytes (8 MiB): a named
//     pipe, a device or a folder is refused unopened (opening a pipe would
//     block the tick), a larger file unread, on load and on Reload.
//
// Memory. A running body may hold Options.MemoryLimit bytes
// (DefaultMemoryLimit, 64 MiB) and the running bodies of one Runtime
// Options.RuntimeMemoryLimit together (DefaultRuntimeMemoryLimit, 512 MiB).
// gopher-lua has no allocator hook, so three measures work together (see
// sandbox_memory.go): the built-ins above count the bytes they build (exact,
// deterministic: more than the limit in one resume fails); between
// resumes a walk of what the body can reach estimates what it holds
// (deterministic, run every 50,000 work units or more when far below the
// limit; about 100 ns per value reached); and during a resume a watchdog
// reads the Go heap after each garbage collection and, when it grew by
// more than the body's headroom, walks what the running code can reach,
// and stops code that allocated more than 1 GiB within one resume (this
// part sees the whole process and is not deterministic). A body past its
// limit fails with "memory limit exceeded (64 MiB): ..." at its file and
// line; its coroutine, the idle pcall workers and its agent's tostring
// ids are dropped, so the next collection frees its memory, and every other agent
// goes on. The figures are estimates: 16 bytes per list slot, 24 per
// value a table holds, 64 more per key of its hash part (keys cleared
// since included: within a factor of two of the Go heap for every kind of
// key), 64 per table, function or userdata, a string's length plus 16
// (long strings counted once), a coroutine's value stack (16 bytes a slot,
// as deep as its deepest call made it) plus 2 KiB. A role file's
// top-level tables count for each body that can reach them. What the
// agent keeps for its scripts outside Lua counts too: the strings in its
// state (npc.state) and the Lua tables in its facts (npc.facts), so a body
// that hoards 15 MiB strings in state variables, or tables in a fact,
// fails before its agent holds twice its limit of real heap. A print
// record keeps the first 8 KiB of its text, so the recorder's ring of
// records stays small whatever a script prints.
//
// Lists and sparse keys. The array part of a table holds up to 4 Mi
// slots (64 MiB, the default memory limit), so #t, appends and loops
// behave as in stock Lua up to about 4 million items. Unlike stock Lua,
// gopher-lua keeps every integer key from 1 to 4,194,303 in the array
// part: a write far past a list's end (t[700000] = "orc" on an empty
// table, a lookup table keyed by entity ids) pads the list with a nil
// for every smaller key. That padding is charged as the table growth it
// is, before it happens: 32 bytes a slot of the list it makes against the
// memory limit (16 for the slot, as much again while the list is rebuilt
// and collected) and a work unit per 4 slots, and the sandbox then pads
// the list in one allocation (12-18 ns of CPU a slot, where gopher-lua's
// own padding took 90-160). So t[700000] = "orc" costs 175,000 units and
// about 11 MiB held, and works under the default limits, at load too;
// t[4000000] = 1 fails at once, before a byte is padded, with "memory
// limit exceeded (64 MiB): the assignment of key 4000000 would pad a list
// with nils up to it ..." at its line. Keep ids that are sparse and large
// in strings, or use keys outside that range. Negative keys, zero, keys
// of 4,194,304 and more (t[2^40]) and keys that are not integers go to
// the hash part, 88 bytes a key in the memory walk (64 once cleared):
// gopher-lua never forgets a hash key whose value was set to nil (nor the
// string or table it holds), so the walk counts those too, and writing
// and clearing keys again and again cannot hide memory. An append past
// the array part's last slot, which gopher-lua would put where #t does
// not see it, fails with "list too long" (with a memory limit above
// 64 MiB; below, the limit stops the list first).
//
// Numbers. A number of magnitude 2^53 or more is refused where it enters
// state from Lua (npc.state, a role's state table): Lua numbers are
// float64 and 2^53 + 1 already reads as 2^53. Keep big ids in strings.
//
// Isolation. The agents of one Runtime share its Lua state, so the sandbox
// keeps them apart: a coroutine can be resumed only by the agent whose
// code created it (coroutine.resume and coroutine.wrap say whose it is
// otherwise, at the caller's line); a host call's handle works only for
// the agent that started it; require loads a module once per role file
// that requires it, so a module's top-level locals (a cache, a registry
// of callbacks) reach only the agents of that role, and what require
// returns is a read-only view, nested tables too (pairs, ipairs, next,
// unpack, table.concat and # work on it); libraries are read-only; an npc object works only in its
// own agent's code. A role file runs once per runtime, so its top-level
// locals would be shared by every agent that carries the role: they are
// constants once the file has loaded. Load-time code may change them
// freely; after that, an agent's assignment to one, or into a table one
// reaches (with table.insert, table.remove, table.sort, rawset and
// setmetatable too), fails its action with
// "file:line: local 'x' of file.lua is shared by every agent of the role:
// top-level locals are constants once the file has loaded (keep per-agent
// data in npc.state or in the body's own locals)". A body's own locals
// stay writable. A module's own locals are not frozen: they are shared by
// the agents of the role that requires it, and an agent that reaches
// another's coroutine or host call through them can do nothing with it.
// Reads are plain table reads. The assignment check runs in the
// instruction budget's per-instruction test, so a runtime without any
// budget (InstructionBudget < 0 and no TimeBudget) refuses only the
// built-ins' writes.
//
// Determinism. Error messages and tostring never show heap addresses:
// tostring({}) reads "table: #1", numbered per agent (the agent whose
// script runs, or whom consideration functions score for; a role file's
// top level and Runtime.Call number their own), and the numbering starts
// over after 4,096 values per agent, so the runtime holds at most that
// many values alive for tostring. math.random draws from the agent's own
// source (engine.Agent.Rand), in bodies, callbacks and consideration
// functions alike. A model's step arguments (npc:llm_plan) are set in key
// order, so pairs visits them in that order. So an agent's trace is the
// same with 1, 2 or 4 workers and whatever agents run beside it. The text
// trace (record.Event.String) writes control characters, line separators
// and bytes that are not UTF-8 in names and printed text as escapes
// ("\n", "\x1b"), so a script's text cannot start a line of its own and
// pass for another agent's record.
//
// Loading. A role file or module is compiled in time linear in its size:
// a table constructor that would put more than 256 constants into its
// function (a role with 40,000 state variables, a lookup table of ids) is
// built in chunks of that many, each in a function of its own, setting
// the fields in the order they are written (a constructor with varargs,
// a positional nil or a trailing call in its fields is left whole).
// 40,000 state variables load in about 0.5 s on the 2-core dev box.
// A chain of extends holds at most MaxExtendsDepth (64) roles; each loaded
// role keeps its own declarations and a link to its parent, and a chain
// is merged in one pass, so memory grows with what the files declare.
//
// Snapshots. engine.Restore reads at most RestoreOptions.MaxBytes (256 MiB
// by default), refuses a planner budget above 1,000,000 expansions and a
// string value above 16 MiB, and, since a domain this package loads has
// engine.Domain.SafeNumbers set, a state number a script could not have
// stored (NaN, or a finite one of magnitude 2^53 or more), each with an
// error naming the agent and field.
//
// Errors. Every error names the script's file and line, also a stack
// overflow, error(nil) or error({}), a budget overrun inside pcall, an
// error of a built-in or host method, a compile limit and a wait inside a
// metamethod. An error inside the npc method wrappers this package
// defines in Lua (a host method kept from another agent's npc, a bad
// argument to a host method or to npc:wait) names the line that called
// the method; after a tail call (return npc:shoot()), which leaves no
// frame of its line, the nearest script line still on the stack (often
// the pcall's). error(msg, level) names the line as Lua does (level 2,
// the line that called the function raising it; where Lua would name
// none, because that caller is pcall or Go code, the nearest script line
// further out; level 0, none), with any file path, also one with spaces;
// pcall returns the same message. An on_interrupt handler that fails is recorded as an
// record.EventFail of the interrupted action (engine.InterruptReporter).
// testdata/hostile holds a corpus of hostile scripts with the exact
// message each gives.
//
// A Runtime is not safe for concurrent use: give each worker goroutine its
// own and pin the agents whose domains it loaded to that worker.
package luabind
