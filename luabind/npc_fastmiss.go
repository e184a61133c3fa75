package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// lookupOnFast reports whether the Go function th runs (fastNPCMiss) was
// called by a lookup instruction whose table register holds ud, the fast
// npc object: the budget charged that lookup accessUnits before it ran
// (tableWork). A lookup that reached ud through another table's __index
// (setmetatable(t, {__index = npc}), t.name) was not charged, so
// fastNPCMiss charges it. It returns false when the frames cannot be read.
func lookupOnFast(th *lua.LState, ud *lua.LUserData) bool {
	_, p := callFrames(th)
	if p.IsZero() {
		return false
	}
	f, ok := frameAt(th, p)
	return ok && f.lookupTarget() == ud
}
