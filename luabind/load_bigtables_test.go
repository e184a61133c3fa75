package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// maxConstants is the most constants of proto or any function inside it.
func maxConstants(p *lua.FunctionProto) int {
	n := len(p.Constants)
	for _, q := range p.FunctionPrototypes {
		n = max(n, maxConstants(q))
	}
	return n
}

// bigRole writes a role file with n state variables and returns its path.
func bigRole(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("return {\n  name = \"Big\",\n  state = {\n")
	for i := range n {
		fmt.Fprintf(&b, "    v%d = %d,\n", i, i)
	}
	b.WriteString("  },\n  goals = { { name = \"g\", condition = \"v1 > 5\" } },\n")
	b.WriteString("  actions = { { name = \"a\", effects = \"v1 = 10\", fulfills = { \"g\" } } },\n}\n")
	path := filepath.Join(t.TempDir(), "big.lua")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestABigRoleCompilesInChunks: a role with 40,000 state variables loads,
// and no function of it holds more than a chunk's constants, so compiling
// it is linear in its size (gopher-lua looks each constant up among its
// function's constants one by one: in one function, 80,000 constants took
// about 3 billion comparisons).
func TestABigRoleCompilesInChunks(t *testing.T) {
	path := bigRole(t, 40000)
	rt := NewRuntime(Options{})
	defer rt.Close()
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	assert.Equal(t, 40000, d.Schema.Len())
	v, ok := d.Schema.Lookup("v39999")
	require.True(t, ok)
	assert.Equal(t, "39999", d.Initial[v].String())

	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fn, err := rt.compile(strings.NewReader(string(src)), "big.lua")
	require.NoError(t, err)
	assert.LessOrEqual(t, maxConstants(fn.Proto), 2*tableChunkConsts)
}

// tableSource is a file that builds a table from fields and returns a
// listing of it, in a fixed order.
func tableSource(fields string) string {
	return "local up = 'upvalue'\nlocal function f() return 'f1', 'f2' end\nlocal t = {\n" + fields + "}\n" + `
local keys = {}
for k in pairs(t) do keys[#keys + 1] = tostring(k) end
table.sort(keys)
local out = { '#=' .. #t }
for _, k in ipairs(keys) do
  local v = t[k] or t[tonumber(k)]
  if type(v) == 'table' then v = v[1] .. ',' .. v.y .. ',' .. v[2] end
  out[#out + 1] = k .. '=' .. tostring(v)
end
return table.concat(out, ' ')
`
}

// TestChunkedTablesAreTheSame builds tables of every kind of field with
// and without chunking and compares what Lua sees.
func TestChunkedTablesAreTheSame(t *testing.T) {
	var keyed, positional strings.Builder
	for i := range 40 {
		fmt.Fprintf(&keyed, "  'p%d',\n", i) // fewer than 50 positions: gopher-lua's own constructor mixes up more beside keys
	}
	for i := range 700 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&keyed, "  k%d = %d,\n", i, i)
		case 1:
			fmt.Fprintf(&keyed, "  n%d = { 'x', y = %d, up },\n", i, i)
		case 2:
			fmt.Fprintf(&keyed, "  k%d = 'dup', k%d = 'last wins',\n", i, i)
		case 3:
			fmt.Fprintf(&keyed, "  [%q] = up,\n", fmt.Sprint("s", i))
		}
		if i%3 == 0 {
			positional.WriteString("  f(),\n") // one value: not the last field
		} else {
			fmt.Fprintf(&positional, "  'p%d',\n", i)
		}
	}
	positional.WriteString("  'last',\n")
	run := func(src string, whole bool) (string, int, int) {
		testHooks.wholeTables = whole
		defer func() { testHooks.wholeTables = false }()
		rt := NewRuntime(Options{})
		defer rt.Close()
		fn, err := rt.compile(strings.NewReader(src), "t.lua")
		require.NoError(t, err)
		rt.L.Push(fn)
		require.NoError(t, rt.L.PCall(0, 1, nil))
		return rt.L.Get(-1).String(), maxConstants(fn.Proto), len(fn.Proto.FunctionPrototypes)
	}
	for name, fields := range map[string]string{"keyed": keyed.String(), "positional": positional.String()} {
		src := tableSource(fields)
		chunked, consts, fns := run(src, false)
		whole, wholeConsts, wholeFns := run(src, true)
		assert.True(t, whole == chunked, "%s: the same table:\n%s\n%s", name, whole, chunked)
		assert.LessOrEqual(t, consts, 2*tableChunkConsts, name)
		assert.Greater(t, wholeConsts, tableChunkConsts+100, "%s: the constructor alone holds them all", name)
		assert.Greater(t, fns, wholeFns, "%s: chunks are functions of their own", name)
		if name == "keyed" {
			assert.Contains(t, chunked, "#=40 ")
			assert.Contains(t, chunked, " k2=last wins ")
			assert.Contains(t, chunked, " n1=x,1,upvalue ")
			assert.Contains(t, chunked, " s3=upvalue ")
		} else {
			assert.Contains(t, chunked, "#=701 1=f1 10=f1 100=f1 101=p100 ")
		}
	}
}

func TestTablesThatMustStayWhole(t *testing.T) {
	tests := []struct{ name, fields, reason string }{
		{"varargs", "...", "a field reads the file's varargs"},
		{"hole", "nil", "a positional nil: # could differ"},
		{"trailing call", "f()", "the last positional call expands to all its values"},
		{"number keys beside positions", "[1000] = 1", "a key that may meet a position"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "local function f() end\nlocal t = {" + strings.Repeat("'x', ", 600) + tt.fields + "}"
			rt := NewRuntime(Options{})
			defer rt.Close()
			fn, err := rt.compile(strings.NewReader(src), "t.lua")
			require.NoError(t, err)
			assert.Greater(t, maxConstants(fn.Proto), 0)
			assert.Len(t, fn.Proto.FunctionPrototypes, 1, tt.reason)
		})
	}
}
