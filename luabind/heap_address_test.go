package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestFormatNamesValuesLikeTostring: string.format's %s names a table, a
// function or a coroutine as tostring does ("table: #1"), never by its
// heap address, so a trace that prints one is the same from run to run.
// It printed "table: 0x1ddfdce2f560".
func TestFormatNamesValuesLikeTostring(t *testing.T) {
	fails, out := runYieldBody(t, `local t = {}
        local s = string.format("%s %s %s|%5s|%s", t, print, coroutine.running(), true, t)
        npc.state.out = s .. "|" .. string.format("%s", setmetatable({}, { __tostring = function() return "T" end }))`)
	assert.Empty(t, fails)
	assert.Equal(t, expr.StringValue("table: #1 function: #2 thread: #3| true|table: #1|T"), out)
}

// TestPcallErrorHasNoHeapAddress: the message pcall returns names no heap
// address, as a failed action's reason does not: gopher-lua's "with key
// 'table: 0x...'" made a trace that prints the message differ from run
// to run.
func TestPcallErrorHasNoHeapAddress(t *testing.T) {
	fails, out := runYieldBody(t, `local x
        local ok, e = pcall(function() return x[{}] end)
        npc.state.out = tostring(ok) .. " " .. e:gsub("^.-:%d+: ", "")`)
	assert.Empty(t, fails)
	assert.Equal(t, expr.StringValue("false attempt to index a non-table object(nil) with key 'table'"), out)
}
