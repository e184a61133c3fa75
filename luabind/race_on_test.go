//go:build race

package luabind

// raceEnabled: the race detector reserves terabytes of address space, so
// tests that run under ulimit -v skip.
const raceEnabled = true
