package luabind

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/perception"
)

var memoryKeys = []string{"half_life", "forget", "capacity", "lose_after"}

// memory reads the role's perception memory settings,
// memory = { half_life = 3, forget = 0.1, capacity = 32, lose_after = 1 }
// (perception.Spec; absent keys keep the defaults).
func (rd *roleReader) memory(t *lua.LTable, spec *engine.RoleSpec, top engine.Pos) {
	mt, at := rd.settings(t, "memory", memoryKeys, "{ half_life = 5, forget = 0.05, capacity = 64 }", top)
	if mt == nil {
		return
	}
	m := perception.Spec{
		HalfLife: rd.num(mt, "half_life", "role: memory", at),
		Forget:   rd.num(mt, "forget", "role: memory", at),
	}
	if h := m.HalfLife; h < 0 || (mt.RawGetString("half_life") != lua.LNil && !(h > 0)) {
		rd.add(rd.find(at, `half_life\s*=`), "role: memory: half_life must be a positive number of seconds (math.huge: never fades), not "+luaShow(lua.LNumber(h)))
		m.HalfLife = 0
	}
	if f := m.Forget; !(f < 1) || math.IsNaN(f) {
		rd.add(rd.find(at, `forget\s*=`), "role: memory: forget must be a confidence below 1 (negative: never forget), not "+luaShow(lua.LNumber(f)))
		m.Forget = 0
	}
	if c := rd.num(mt, "capacity", "role: memory", at); c != math.Trunc(c) || c < 1 || c > 1<<20 {
		if mt.RawGetString("capacity") != lua.LNil {
			rd.add(rd.find(at, `capacity\s*=`), "role: memory: capacity must be a whole number of things from 1 to 1048576, not "+luaShow(lua.LNumber(c)))
		}
	} else {
		m.Capacity = int(c)
	}
	if l := rd.num(mt, "lose_after", "role: memory", at); math.IsNaN(l) || math.IsInf(l, 1) {
		rd.add(rd.find(at, `lose_after\s*=`), "role: memory: lose_after must be a number of seconds (negative: lost only by npc:lose), not "+luaShow(lua.LNumber(l)))
	} else {
		m.LoseAfter = l
	}
	spec.Memory = m
}
