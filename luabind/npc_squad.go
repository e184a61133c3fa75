package luabind

import (
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// npc.squad is the agent's view of its squad's blackboard: npc.squad.x is
// the state variable "squad.x" that the role declares in its squad table,
// read and written as npc.state["squad.x"] is. A write is the agent's own
// at once and every squad mate's from the next tick (engine.Group).

// squadScope is the scope of the board a role's squad table declares
// (engine.GroupSpec.Scope).
const squadScope = "squad"

// squadProxy is the value of an npc.squad userdata.
type squadProxy struct{ a *engine.Agent }

func (r *Runtime) squad(p *npcRef) *lua.LUserData {
	return r.proxy(&p.squad, squadProxy{p.a}, &r.sqMeta, r.squadIndex, r.squadNewIndex)
}

// squadSlot returns the slot of squad variable key of the agent npc.squad
// (argument 1) stands for, or raises an error naming the squad variables
// the role declares.
func (r *Runtime) squadSlot(L *lua.LState) (*engine.Agent, string, int) {
	var a *engine.Agent
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if p, ok := ud.Value.(squadProxy); ok {
			r.checkCurrent(L, p.a)
			a = p.a
		}
	}
	if a == nil {
		L.ArgError(1, "npc.squad expected")
	}
	r.charge(L, accessUnits)
	key := L.CheckString(2)
	slot, ok := a.Domain.Schema.Lookup(squadScope + "." + key)
	if !ok {
		var names []string
		for _, n := range a.Domain.Schema.Names() {
			if rest, ok := strings.CutPrefix(n, squadScope+"."); ok {
				names = append(names, rest)
			}
		}
		if len(names) == 0 {
			L.RaiseError("npc.squad.%s: the role declares no squad variables (squad = { %s = ... })", key, key)
		}
		L.RaiseError("npc.squad.%s: no such squad variable%s", key, didYouMean(key, names))
	}
	return a, key, slot
}

func (r *Runtime) squadIndex(L *lua.LState) int {
	r.budget.fastAgain()
	a, _, slot := r.squadSlot(L)
	L.Push(fromValue(a.State[slot]))
	return 1
}

func (r *Runtime) squadNewIndex(L *lua.LState) int {
	r.budget.fastAgain()
	a, key, slot := r.squadSlot(L)
	if r.mode.readOnly() {
		L.RaiseError("npc.squad.%s: %s must not change state", key, r.mode)
	}
	v, err := toValue(L.Get(3))
	if err != nil {
		L.RaiseError("npc.squad.%s: %s", key, err.Error())
	}
	a.State[slot] = v
	return 0
}
