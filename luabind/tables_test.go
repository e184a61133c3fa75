package luabind

import (
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestHugeTableWritesAreRefusedBeforeTheyPad: an assignment, table.insert
// or rawset millions of slots past a list's end is charged before it
// runs, so the memory limit refuses it before a byte of padding is
// allocated (it used to build 64 MiB of nils in one instruction, stopped
// only by the 1 GiB watchdog after many).
func TestHugeTableWritesAreRefusedBeforeTheyPad(t *testing.T) {
	for file, what := range map[string]string{"table_huge_index.lua": "the assignment", "table_insert_huge.lua": "table.insert", "rawset_huge.lua": "rawset"} {
		t.Run(file, func(t *testing.T) {
			rt := NewRuntime(Options{})
			defer rt.Close()
			d, err := rt.LoadDomain(filepath.Join("testdata", "hostile", file))
			require.NoError(t, err)
			a := engine.NewAgent("hostile", d)
			w := engine.NewWorld(1)
			var fail string
			w.OnEvent = func(e record.Event) {
				if e.Kind == record.EventFail {
					fail = e.Reason
				}
			}
			w.Add(a)
			before := heapAllocs()
			w.Tick(0.1)
			grew := heapAllocs() - before
			assert.Contains(t, fail, file+":13: memory limit exceeded (64 MiB): "+what+" of key 4000000 would pad a list with nils up to it")
			assert.Less(t, grew, uint64(8<<20), "bytes allocated by the tick that refused the write")
		})
	}
}

// TestListsStillGrowAsInStockLua: appends, # and next on a list of a
// million items work and cost what they did (no padding, no trailing
// nils to scan).
func TestListsStillGrowAsInStockLua(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 20_000_000})
	defer rt.Close()
	fn, err := rt.L.LoadString(`
		local t = {}
		for i = 1, 1000000 do t[#t + 1] = i end
		table.insert(t, 7)
		local n = 0
		for _ in pairs(t) do n = n + 1 end
		t[#t + 2] = 1 -- a gap of one nil is fine
		return #t, n, t[1000001]`)
	require.NoError(t, err)
	out, err := rt.Call(nil, fn, 3)
	require.NoError(t, err)
	assert.Equal(t, "1000003 1000001 7", out[0].String()+" "+out[1].String()+" "+out[2].String())
}

// TestTableWorkCountsTheArrayPart: the table work the budget charges is
// counted on a table's array part (its fields are read by package luavm,
// whose tests pin them): the nils at its end, up to a limit, and the nils
// an assignment past its end would pad.
func TestTableWorkCountsTheArrayPart(t *testing.T) {
	require.True(t, luavm.OK())
	rt := NewRuntime(Options{})
	defer rt.Close()
	fn, err := rt.L.LoadString(`local t = {1, 2, 3} t[3] = nil t[2] = nil return t`)
	require.NoError(t, err)
	out, err := rt.Call(nil, fn, 1)
	require.NoError(t, err)
	tbl := out[0].(*lua.LTable)
	assert.Len(t, tableArray(tbl), 3)
	assert.Equal(t, 2, trailingNils(tbl, 10))
	assert.Equal(t, 1, trailingNils(tbl, 1), "the count stops at its limit")
	assert.Equal(t, 6, paddingOf(tbl, lua.LNumber(10)))
	assert.Equal(t, 0, paddingOf(tbl, lua.LNumber(4)))
	assert.Equal(t, 0, paddingOf(tbl, lua.LNumber(10.5)))

	fn, err = rt.L.LoadString(`local t = {1, 2, 3} t[3] = nil t[2] = nil t[1] = nil return t, {}`)
	require.NoError(t, err)
	out, err = rt.Call(nil, fn, 2)
	require.NoError(t, err)
	empty := out[0].(*lua.LTable)
	require.Len(t, tableArray(empty), 3)
	assert.Equal(t, 3, trailingNils(empty, 10), "an array of nils alone counts its first slot too")
	assert.Equal(t, 1, paddingOf(out[1].(*lua.LTable), lua.LNumber(2)), "t[2] = v on an empty table pads t[1]")
	assert.Equal(t, 0, paddingOf(out[1].(*lua.LTable), lua.LNumber(1)))
	assert.Equal(t, 0, paddingOf(tbl, lua.LNumber(lua.MaxArrayIndex)), "gopher-lua keeps a key from lua.MaxArrayIndex on in the hash part")
}

// TestAppendPastTheArrayFailsLoudly: an append that would land past the
// array part's last slot (where gopher-lua puts it in the hash part and
// #t stops counting) fails with a clear error at its line, by assignment
// and by table.insert. The array limit is lowered for the test.
func TestAppendPastTheArrayFailsLoudly(t *testing.T) {
	saved := lua.MaxArrayIndex
	lua.MaxArrayIndex = 1000
	defer func() { lua.MaxArrayIndex = saved }()
	for _, c := range []struct{ name, src, want string }{
		{"assignment", "local t = {}\nfor i = 1, 2000 do\n  t[#t + 1] = i\nend", "append:3: list too long: more than 999 items, where #t would stop counting (keep fewer, or use keys that are not a list's)"},
		{"table.insert", "local t = {}\nfor i = 1, 2000 do\n  table.insert(t, i)\nend", "append:3: table.insert: list too long: more than 999 items, where #t would stop counting (keep fewer, or use keys that are not a list's)"},
		{"hash keys stay fine", "local t = {}\nt[5000] = 1\nt[1000] = 2\nreturn t[5000] + t[1000]", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := NewRuntime(Options{})
			defer rt.Close()
			fn, err := rt.L.Load(strings.NewReader(c.src), "append")
			require.NoError(t, err)
			_, err = rt.Call(nil, fn, 1)
			if c.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

// TestALengthAsAFunctionsFirstInstructionIsCharged: the budget reads the
// instruction about to run from the one before the frame's pc, so a #
// that is the very first instruction of a function is charged the nils
// it scans too.
func TestALengthAsAFunctionsFirstInstructionIsCharged(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: 10_000_000})
	defer rt.Close()
	work := func(of string) int64 {
		fn, err := rt.L.LoadString(`local function len(t) return #t end
local t = {}
for i = 1, 100000 do t[i] = i end
for i = 100000, 1, -1 do t[i] = nil end
return len(` + of + `)`)
		require.NoError(t, err)
		out, err := rt.Call(nil, fn, 1)
		require.NoError(t, err)
		require.Equal(t, lua.LNumber(0), out[0])
		return rt.budget.n
	}
	assert.Equal(t, itemsWork(100000)-itemsWork(0), work("t")-work("{}"), "the scan of the 100,000 nils at the end of t's list")
}

// TestAPaddingAssignmentToATableWithAMetatableIsRefused: a metatable
// without __newindex leaves the assignment to the table itself, so a
// write that would pad its list is refused before it pads, as on a
// plain table.
func TestAPaddingAssignmentToATableWithAMetatableIsRefused(t *testing.T) {
	rt := NewRuntime(Options{MemoryLimit: 1 << 20})
	defer rt.Close()
	fn, err := rt.L.Load(strings.NewReader("local t = setmetatable({}, { __index = {} })\nt[4000000] = 1"), "meta")
	require.NoError(t, err)
	_, err = rt.Call(nil, fn, 0)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "meta:2: memory limit exceeded (1 MiB): the assignment of key 4000000 would pad a list with nils up to it"), err.Error())
}
