package luabind

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine/perception"
)

// initMemory adds the npc methods of the perception memory
// (perception.Memory): recall, memories, perceive and lose.
func (r *Runtime) initMemory() {
	for name, f := range map[string]lua.LGFunction{
		"recall": r.npcRecall, "memories": r.npcMemories, "perceive": r.npcPerceive, "lose": r.npcLose,
	} {
		r.methods.RawSetString(name, r.L.NewFunction(f))
	}
}

// rememberedTable is one remembered thing as Lua reads it.
func rememberedTable(L *lua.LState, m perception.Remembered) *lua.LTable {
	t := L.CreateTable(0, 8)
	setRemembered(t, m)
	return t
}

// setRemembered sets the fields of a remembered thing in t: source,
// sense, x, y, at, age, confidence and lost.
func setRemembered(t *lua.LTable, m perception.Remembered) {
	t.RawSetString("source", lua.LString(m.Source))
	t.RawSetString("sense", lua.LString(m.Sense.String()))
	t.RawSetString("x", lua.LNumber(m.X))
	t.RawSetString("y", lua.LNumber(m.Y))
	t.RawSetString("at", lua.LNumber(m.At))
	t.RawSetString("age", lua.LNumber(m.Age))
	t.RawSetString("confidence", lua.LNumber(m.Confidence))
	t.RawSetString("lost", lua.LBool(m.Lost))
}

// npc:recall(source): what the agent remembers of source now, a table
// of source, sense, x, y, at, age, confidence and lost, or nil.
func (r *Runtime) npcRecall(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	source := L.CheckString(2)
	r.charge(L, 2*accessUnits)
	m, ok := a.Memory().Recall(source, a.Time())
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(rememberedTable(L, m))
	return 1
}

// npc:memories(): everything the agent remembers now, in the order first
// perceived, as recall's tables.
func (r *Runtime) npcMemories(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	things := a.Memory().Things(a.Time())
	r.charge(L, accessUnits*int64(1+2*len(things)))
	t := L.CreateTable(len(things), 0)
	for _, m := range things {
		t.Append(rememberedTable(L, m))
	}
	L.Push(t)
	return 1
}

// npc:perceive(source, sense, x, y [, strength]): remembers a stimulus
// now (a Lua sensor's sight, a sound a body heard).
func (r *Runtime) npcPerceive(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	r.writable(L, "perceive")
	source := L.CheckString(2)
	if err := nameLength(source); err != nil {
		L.ArgError(1, err.Error())
	}
	sense, ok := perception.ParseSense(L.CheckString(3))
	if !ok {
		L.ArgError(2, `sense must be "sight", "sound", "damage" or "told", not `+describeLua(L.Get(3), 0))
	}
	x, y := float64(L.CheckNumber(4)), float64(L.CheckNumber(5))
	for i, v := range []float64{x, y} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			L.ArgError(i+3, "a position must be a finite number")
		}
	}
	strength := float64(L.OptNumber(6, 1))
	if !(strength > 0 && strength <= 1) {
		L.ArgError(5, "strength must be a number above 0 and at most 1")
	}
	r.charge(L, 2*accessUnits)
	a.Perceive(perception.Stimulus{Source: source, Sense: sense, X: x, Y: y, Strength: strength})
	return 0
}

// npc:lose(source): the agent has lost source from perception now (its
// line of sight broke, say): true when it remembered source unlost. It
// stays remembered, at its last known position, until forgotten.
func (r *Runtime) npcLose(L *lua.LState) int {
	a := r.checkAgent(L, 1)
	r.writable(L, "lose")
	source := L.CheckString(2)
	r.charge(L, 2*accessUnits)
	L.Push(lua.LBool(a.Memory().Lose(source, a.Time())))
	return 1
}
