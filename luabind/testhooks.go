package luabind

// testHooks holds the switches the package's tests use to force a slow
// path or to watch an inner step. Production code never sets them, so each
// is at its zero value (the fast path, nothing watched) outside tests. The
// tests set the flags before NewRuntime and put them back after; none of
// them is safe to change while a runtime runs.
var testHooks struct {
	// slowNPC turns promote off, so every npc lookup goes through
	// npcIndex, to compare both ways.
	slowNPC bool
	// noMirror turns the fast npc.state off, so every read goes through
	// stateIndex, to compare both ways.
	noMirror bool
	// slowStateWrites keeps every write of the fast npc.state on the Go
	// stateNewIndex, to compare both ways.
	slowStateWrites bool
	// luaWait keeps the prelude's Lua npc:wait instead of the Go one.
	luaWait bool
	// luaHost keeps the prelude's Lua colon check in host methods.
	luaHost bool
	// yieldCheck, when set, gets both answers of yieldNested for a
	// coroutine: from the call frames and from the Go stack.
	yieldCheck func(frames, goStack bool)
	// entryLooked, when set (before any Scan.Entry runs), is told how
	// many expressions each Entry looks at.
	entryLooked func(n int)
	// wholeTables turns splitBigTables off, to compare a chunked table
	// with its constructor.
	wholeTables bool
}
