// Package luavm reads, and in a few places writes, what gopher-lua keeps
// unexported: a table's array part, map of string keys and key order, a thread's
// value stack, its call frames and its call-frame stack, and the frame a
// lua.Debug describes. The sandbox needs them where gopher-lua has no
// hook (the table work inside one VM instruction, the instruction a
// thread is about to run), and the hot paths where gopher-lua's exported
// API allocates (GetStack) or looks a key up twice (RawSetString).
//
// The fields are found by name at init through reflection, never
// guessed: when one is missing or has another type, OK is false and
// every reader here gives its "cannot tell" answer (documented on each),
// so luabind falls back to gopher-lua's exported API or leaves out the
// check. The module pins gopher-lua v1.1.2; the tests of this package
// check every field against it and fail when a release moves one.
//
// This package also holds luabind's other uses of package unsafe (a
// string's bytes read in place), so that no other file of luabind
// imports it.
//
// Nothing here is safe for concurrent use with the thread or table it
// reads: call it from the goroutine that runs them.
package luavm

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// offsets are those of gopher-lua's unexported fields that this package
// reads.
type offsets struct {
	tableArray   uintptr // LTable.array
	tableStrings uintptr // LTable.strdict
	tableKeys    uintptr // LTable.keys

	stateFrame    uintptr // LState.currentFrame
	stateReg      uintptr // LState.reg (the value stack)
	stateUpvalues uintptr // LState.uvcache (the open upvalues)
	stateStack    uintptr // the data word of LState.stack (an interface)

	frameFn, framePc, frameLocalBase uintptr // callFrame.Fn, Pc, LocalBase
	frameParent, frameTailCall       uintptr // callFrame.Parent, TailCall
	frameIdx, frameSize              uintptr // callFrame.Idx, the size of a callFrame

	regArray, regTop uintptr // registry.array, registry.top

	debugFrame uintptr // Debug.frame
}

// layout is the offsets found at init; ok is true when all were.
var layout struct {
	offsets
	ok bool
}

func init() {
	layout.offsets, layout.ok = findOffsets()
}

// findOffsets finds the offsets by name, reporting false when a field is
// missing or has another type than in gopher-lua v1.1.2.
func findOffsets() (o offsets, ok bool) {
	value := reflect.TypeFor[lua.LValue]()
	table := reflect.TypeFor[lua.LTable]()
	arr, ok1 := field(table, "array", reflect.Slice, reflect.TypeFor[[]lua.LValue]())
	strs, ok2 := field(table, "strdict", reflect.Map, reflect.TypeFor[map[string]lua.LValue]())
	keys, okKeys := field(table, "keys", reflect.Slice, reflect.TypeFor[[]lua.LValue]())
	state := reflect.TypeFor[lua.LState]()
	cf, ok3 := field(state, "currentFrame", reflect.Pointer, nil)
	reg, ok4 := field(state, "reg", reflect.Pointer, nil)
	uv, ok5 := field(state, "uvcache", reflect.Pointer, nil)
	stack, ok6 := field(state, "stack", reflect.Interface, nil)
	dbg, ok7 := field(reflect.TypeFor[lua.Debug](), "frame", reflect.Pointer, cf.Type)
	if !ok1 || !ok2 || !okKeys || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 ||
		cf.Type.Elem().Kind() != reflect.Struct || reg.Type.Elem().Kind() != reflect.Struct {
		return o, false
	}
	frame := cf.Type.Elem()
	fn, ok1 := field(frame, "Fn", reflect.Pointer, reflect.TypeFor[*lua.LFunction]())
	pc, ok2 := field(frame, "Pc", reflect.Int, nil)
	lb, ok3 := field(frame, "LocalBase", reflect.Int, nil)
	parent, ok4 := field(frame, "Parent", reflect.Pointer, cf.Type)
	tail, ok5 := field(frame, "TailCall", reflect.Int, nil)
	idx, ok6 := field(frame, "Idx", reflect.Int, nil)
	regArr, ok7 := field(reg.Type.Elem(), "array", reflect.Slice, reflect.SliceOf(value))
	top, ok8 := field(reg.Type.Elem(), "top", reflect.Int, nil)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 || !ok8 {
		return o, false
	}
	return offsets{
		tableArray: arr.Offset, tableStrings: strs.Offset, tableKeys: keys.Offset,
		stateFrame: cf.Offset, stateReg: reg.Offset, stateUpvalues: uv.Offset,
		stateStack: stack.Offset + wordSize,
		frameFn:    fn.Offset, framePc: pc.Offset, frameLocalBase: lb.Offset,
		frameParent: parent.Offset, frameTailCall: tail.Offset,
		frameIdx: idx.Offset, frameSize: frame.Size(),
		regArray: regArr.Offset, regTop: top.Offset,
		debugFrame: dbg.Offset,
	}, true
}

// OK reports whether every field this package reads was found: when
// false, each reader gives its "cannot tell" answer.
func OK() bool { return layout.ok }

// field is the field name of t when it has kind k (and, for want != nil,
// is exactly of type want).
func field(t reflect.Type, name string, k reflect.Kind, want reflect.Type) (reflect.StructField, bool) {
	f, ok := t.FieldByName(name)
	return f, ok && f.Type.Kind() == k && (want == nil || f.Type == want)
}

// wordSize is the size of a pointer, which an interface holds two of.
const wordSize = unsafe.Sizeof(uintptr(0))
