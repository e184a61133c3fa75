package luabind

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// lookupOnFast reports whether the Go function th runs (fastNPCMiss) was
// called by a lookup instruction whose table register holds ud, the fast
// npc object: the budget charged that lookup accessUnits before it ran
// (tableWork). A lookup that reached ud through another table's __index
// (setmetatable(t, {__index = npc}), t.name) was not charged, so
// fastNPCMiss charges it. It returns false when the frames cannot be read.
func lookupOnFast(th *lua.LState, ud *lua.LUserData) bool {
	if !peek.ok {
		return false
	}
	cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), peek.stateFrame))
	if cf == nil {
		return false
	}
	p := *(*unsafe.Pointer)(unsafe.Add(cf, peek.frameParent))
	if p == nil {
		return false
	}
	fn := *(**lua.LFunction)(unsafe.Add(p, peek.frameFn))
	if fn == nil || fn.IsG || fn.Proto == nil {
		return false
	}
	pc, code := *(*int)(unsafe.Add(p, peek.framePc)), fn.Proto.Code
	if pc < 1 || pc > len(code) {
		return false
	}
	inst := code[pc-1]
	switch int(inst >> 26) {
	case opGetTable, opGetTableKS, opSelf:
		f := vmFrame{th: th, cf: p, fn: fn, inst: inst}
		reg, ok := f.register(int(inst & 0x1ff)).(*lua.LUserData)
		return ok && reg == ud
	}
	return false
}
