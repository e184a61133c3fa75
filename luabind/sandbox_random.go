package luabind

import (
	"math/rand/v2"

	lua "github.com/yuin/gopher-lua"
)

// openRandom replaces math.random and math.randomseed, which in gopher-lua
// share Go's process-wide generator (seeded differently in every process),
// with ones that draw from the running agent's own seeded source
// (engine.Agent.Rand, seeded by World.Add from the world's seed and the
// agent's index). So the same scripts, seed and inputs give the same
// numbers, with any number of workers, and math.randomseed in one script
// reseeds only its own agent. A consideration function draws from the
// source of the agent it scores for. Outside an agent (a role file's top
// level, Runtime.Call) the runtime's own source is used, seeded with 1.
func (r *Runtime) openRandom(math *lua.LTable) {
	r.rand = rand.New(rand.NewPCG(1, 2))
	math.RawSetString("random", r.L.NewFunction(r.random))
	math.RawSetString("randomseed", r.L.NewFunction(r.randomseed))
}

func (r *Runtime) source() *rand.Rand {
	if a := r.drawer(); a != nil && a.Rand != nil {
		return a.Rand
	}
	return r.rand
}

// random is Lua 5.1's math.random: no argument, a float in [0, 1); one,
// an integer in [1, m]; two, an integer in [m, n].
func (r *Runtime) random(L *lua.LState) int {
	src := r.source()
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(src.Float64()))
	case 1:
		m := L.CheckInt64(1)
		if m < 1 {
			L.ArgError(1, "interval is empty")
		}
		L.Push(lua.LNumber(1 + src.Int64N(m)))
	default:
		m, n := L.CheckInt64(1), L.CheckInt64(2)
		if m > n {
			L.ArgError(2, "interval is empty")
		}
		// n - m + 1 may pass the int64 range (math.random(-2^62, 2^62)):
		// as unsigned numbers the span is exact, and 0 means all 2^64.
		span := uint64(n) - uint64(m) + 1
		var x uint64
		if span == 0 {
			x = src.Uint64()
		} else {
			x = src.Uint64N(span)
		}
		L.Push(lua.LNumber(m + int64(x)))
	}
	return 1
}

// randomseed reseeds the running agent's source (or the runtime's).
func (r *Runtime) randomseed(L *lua.LState) int {
	seed := uint64(L.CheckInt64(1))
	if a := r.drawer(); a != nil {
		a.Reseed(seed) // in place, so World.Snapshot still saves it
	} else {
		r.rand = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	}
	return 0
}
