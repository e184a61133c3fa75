package luavm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// The tests of this file pin the layout of gopher-lua's unexported fields
// that this package reads: each reader is checked against what
// gopher-lua's exported API shows of the same thing.

// TestGopherLuaIsThePinnedVersion: the module of this package (its
// nearest go.mod) requires gopher-lua v1.1.2, the release whose fields
// these tests check. A new release may move a field this package reads:
// make sure these tests pass with it before changing the pin.
func TestGopherLuaIsThePinnedVersion(t *testing.T) {
	dir, err := filepath.Abs(".")
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		require.NotEqual(t, dir, filepath.Dir(dir), "no go.mod above the package")
		dir = filepath.Dir(dir)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	var pins []string
	for line := range strings.Lines(string(mod)) {
		if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require")); len(f) >= 2 && f[0] == "github.com/yuin/gopher-lua" {
			pins = append(pins, f[1])
		}
	}
	assert.Equal(t, []string{"v1.1.2"}, pins, "the gopher-lua of %s", filepath.Join(dir, "go.mod"))
}

// TestVMPeekMatchesGopherLua: every field was found, and a table's array
// part reads as gopher-lua keeps it: the values of keys 1..n, with the
// nils that assignments of nil left at its end.
func TestVMPeekMatchesGopherLua(t *testing.T) {
	require.True(t, OK(), "a field of LTable, LState, callFrame, registry or Debug moved")
	assert.Equal(t, 10*unsafe.Sizeof(uintptr(0)), FrameSize(), "a callFrame is ten words")
	L := lua.NewState()
	defer L.Close()
	require.NoError(t, L.DoString(`t = {1, 2, 3} t[3] = nil t[2] = nil`))
	tbl := L.GetGlobal("t").(*lua.LTable)
	assert.Equal(t, []lua.LValue{lua.LNumber(1), lua.LNil, lua.LNil}, TableArray(tbl))
	assert.Equal(t, 1, tbl.Len())
	tbl.RawSetInt(4, lua.LString("four"))
	assert.Equal(t, []lua.LValue{lua.LNumber(1), lua.LNil, lua.LNil, lua.LString("four")}, TableArray(tbl))
	assert.Empty(t, TableArray(L.NewTable()))
}

// keysInOrder is t's keys and values in the order next gives them.
func keysInOrder(t *lua.LTable) []string {
	var out []string
	k := lua.LValue(lua.LNil)
	for {
		var v lua.LValue
		if k, v = t.Next(k); k == lua.LNil {
			return out
		}
		out = append(out, k.String()+"="+v.String())
	}
}

// TestStringKeysMatchGopherLua: ReplaceString writes a string key's value
// where RawGetString and next read it, keeping the key order;
// CompactStrings keeps every key, value and the order; a table without
// string keys is left to RawSetString.
func TestStringKeysMatchGopherLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	require.NoError(t, L.DoString(`t = {x = 1, y = 2, z = 3, 10, 20}`))
	tbl := L.GetGlobal("t").(*lua.LTable)
	before := keysInOrder(tbl)
	require.True(t, ReplaceString(tbl, "y", lua.LString("two")))
	assert.Equal(t, lua.LString("two"), tbl.RawGetString("y"))
	want := append([]string(nil), before...)
	for i, kv := range want {
		if kv == "y=2" {
			want[i] = "y=two"
		}
	}
	assert.Equal(t, want, keysInOrder(tbl))
	CompactStrings(tbl)
	assert.Equal(t, want, keysInOrder(tbl), "the same keys, values and order")
	tbl.RawSetString("w", lua.LTrue)
	assert.Equal(t, lua.LTrue, tbl.RawGetString("w"), "the new map takes new keys")

	noStrings := L.CreateTable(4, 0)
	assert.False(t, ReplaceString(noStrings, "a", lua.LTrue), "no map of string keys yet")
	assert.Equal(t, lua.LNil, noStrings.RawGetString("a"))
}

// TestFramesMatchGopherLua: a Go function called from Lua code sees its
// own frame on top and the Lua frame that called it under it: the
// functions they run, the CALL instruction the Lua frame waits in, its
// registers (its locals), the frames' depths and the tail calls a frame
// replaced, as gopher-lua's GetStack and GetInfo show them; and the value
// stack's slots from the Go frame's base are its arguments, up to the top.
func TestFramesMatchGopherLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	type seen struct {
		self, caller           *lua.LFunction
		depth, callerDepth     int
		callerOp, callerTails  int
		locals, args           []lua.LValue
		top, getTop, bottomLen int
	}
	var got []seen
	L.SetGlobal("look", L.NewFunction(func(L *lua.LState) int {
		cf := CurrentFrame(L)
		require.False(t, cf.IsZero())
		p := cf.Parent()
		require.False(t, p.IsZero())
		s := seen{self: cf.Function(), caller: p.Function(), depth: cf.Depth(), callerDepth: p.Depth(),
			callerOp: int(p.Function().Proto.Code[p.PC()-1] >> 26), callerTails: p.TailCalls(), getTop: L.GetTop()}
		for i := range 2 {
			s.locals = append(s.locals, Register(L, p, i))
		}
		slots, top := Stack(L)
		s.top = top - cf.LocalBase()
		s.args = append(s.args, slots[cf.LocalBase():top]...)
		for f := cf; !f.IsZero(); f = f.Parent() {
			s.bottomLen++
		}
		got = append(got, s)
		return 0
	}))
	require.NoError(t, L.DoString(`
		function direct(a) local b = a .. "!"; look(a, b, 3) return b end
		function tail(n) if n > 0 then return tail(n - 1) end local c = "bottom"; look(c) return c end
		direct("hi")
		tail(2)`))
	require.Len(t, got, 2)
	direct, tail := L.GetGlobal("direct").(*lua.LFunction), L.GetGlobal("tail").(*lua.LFunction)
	look := L.GetGlobal("look").(*lua.LFunction)

	d := got[0]
	assert.Same(t, look, d.self)
	assert.Same(t, direct, d.caller)
	assert.Equal(t, lua.OP_CALL, d.callerOp)
	assert.Equal(t, []lua.LValue{lua.LString("hi"), lua.LString("hi!")}, d.locals, "a and b")
	assert.Equal(t, []lua.LValue{lua.LString("hi"), lua.LString("hi!"), lua.LNumber(3)}, d.args)
	assert.Equal(t, d.getTop, d.top, "the top over the Go frame's base is GetTop")
	assert.Equal(t, 2, d.depth, "the chunk, direct, look")
	assert.Equal(t, 1, d.callerDepth)
	assert.Equal(t, 3, d.bottomLen)
	assert.Equal(t, 0, d.callerTails)

	tl := got[1]
	assert.Same(t, tail, tl.caller)
	assert.Equal(t, 2, tl.callerTails, "two tail calls replaced the frame")
	assert.Equal(t, lua.LString("bottom"), tl.locals[1], "n, then c")
	assert.Equal(t, 2, tl.depth, "a tail call takes no frame")
}

// recorder is a context whose Done records, before each instruction the
// VM runs, the opcode NextInstruction finds.
type recorder struct {
	context.Context
	th  *lua.LState
	ops []int
}

func (r *recorder) Done() <-chan struct{} {
	if f, inst := NextInstruction(r.th, ^uint64(0)); !f.IsZero() {
		r.ops = append(r.ops, int(inst>>26))
	}
	return nil
}

// TestNextInstructionIsTheVMs: NextInstruction sees each instruction of a
// chunk, in the order the VM runs them, as gopher-lua compiled them; only
// the opcodes asked for.
func TestNextInstructionIsTheVMs(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	fn, err := L.LoadString(`local t = {} t[1] = 5 return #t`)
	require.NoError(t, err)
	var want []int
	for _, inst := range fn.Proto.Code {
		want = append(want, int(inst>>26))
	}
	require.Equal(t, lua.OP_NEWTABLE, want[0])
	require.Contains(t, want, lua.OP_SETTABLE)
	require.Contains(t, want, lua.OP_LEN)
	require.Equal(t, []int{lua.OP_RETURN, lua.OP_RETURN}, want[len(want)-2:], "return #t, then the chunk's own return")
	r := &recorder{Context: context.Background(), th: L}
	L.SetContext(r)
	L.Push(fn)
	require.NoError(t, L.PCall(0, 1, nil))
	assert.Equal(t, lua.LNumber(1), L.Get(-1))
	assert.Equal(t, want[:len(want)-1], r.ops, "every instruction up to the first RETURN")

	f, _ := NextInstruction(L, 0)
	assert.True(t, f.IsZero(), "no opcode asked for")
	f, _ = NextInstruction(L, 1<<lua.OP_LEN)
	assert.True(t, f.IsZero(), "no frame runs")
}

// TestThreadStateMatchesGopherLua: a coroutine suspended inside a function
// whose local a closure captured has an open upvalue; once it returned,
// its call stack is empty, none is open, and ClearStack leaves its value
// stack as a new thread's. The prefetch addresses are found for a state
// that keeps its call stack in segments.
func TestThreadStateMatchesGopherLua(t *testing.T) {
	L := lua.NewState(lua.Options{MinimizeStackMemory: true})
	defer L.Close()
	require.NoError(t, L.DoString(`function body() local n = 1; local f = function() return n end; coroutine.yield(f) return n end`))
	th, _ := L.NewThread()
	assert.True(t, CurrentFrame(th).IsZero(), "a new thread runs nothing")
	assert.False(t, HasOpenUpvalues(th))
	st, err, _ := L.Resume(th, L.GetGlobal("body").(*lua.LFunction))
	require.NoError(t, err)
	require.Equal(t, lua.ResumeYield, st)
	assert.False(t, CurrentFrame(th).IsZero())
	assert.True(t, HasOpenUpvalues(th), "n is captured while body runs")
	assert.NotZero(t, StackAddr(th))
	assert.NotZero(t, CallStackAddr(th))
	assert.NotZero(t, CallStackSegmentsAddr(th))

	st, err, _ = L.Resume(th, nil)
	require.NoError(t, err)
	require.Equal(t, lua.ResumeOK, st)
	assert.True(t, CurrentFrame(th).IsZero(), "the body returned")
	assert.False(t, HasOpenUpvalues(th), "returning closed n")
	slots, _ := Stack(th)
	require.NotEmpty(t, slots)
	slots[0] = lua.LString("left over")
	ClearStack(th)
	slots, top := Stack(th)
	assert.Equal(t, 0, top)
	for i, v := range slots {
		require.Nil(t, v, "slot %d", i)
	}

	plain := lua.NewState()
	defer plain.Close()
	assert.Zero(t, CallStackSegmentsAddr(plain), "a fixed call stack has no segments")
	assert.NotZero(t, CallStackAddr(plain))
}

// TestStringBytesAreTheString: StringBytes reads a string's bytes in
// place, and StringData is where they lie.
func TestStringBytesAreTheString(t *testing.T) {
	s := string(make([]byte, 100)) + "tail"
	b := StringBytes(s)
	assert.Equal(t, []byte(s), b)
	assert.Same(t, StringData(s), &b[0])
	assert.Same(t, StringData(s), StringData(s[:10]), "a prefix shares the bytes")
	assert.Empty(t, StringBytes(""))
}

// TestTableKeysMatchGopherLua: TableKeys lists the hash part's keys in
// next's order, keys set to nil since included; PadArray leaves a table
// whose keys read as if gopher-lua had padded it.
func TestTableKeysMatchGopherLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	require.NoError(t, L.DoString(`t = {1, x = 2} t[-1] = 3 t[2^40] = 4 t[0.5] = 5 t.x = nil`))
	tbl := L.GetGlobal("t").(*lua.LTable)
	assert.Equal(t, []lua.LValue{lua.LString("x"), lua.LNumber(-1), lua.LNumber(1 << 40), lua.LNumber(0.5)}, TableKeys(tbl))
	assert.Empty(t, TableKeys(L.NewTable()))

	padded, stock := L.NewTable(), L.NewTable()
	padded.RawSetInt(1, lua.LTrue)
	stock.RawSetInt(1, lua.LTrue)
	require.True(t, PadArray(padded, 5))
	assert.Len(t, TableArray(padded), 6)
	assert.Equal(t, 7, cap(TableArray(padded)), "room for the write that follows")
	padded.RawSetInt(7, lua.LString("seven"))
	stock.RawSetInt(7, lua.LString("seven"))
	assert.Equal(t, TableArray(stock), TableArray(padded))
	assert.Equal(t, stock.MaxN(), padded.MaxN())
	assert.False(t, PadArray(padded, 0))
}
