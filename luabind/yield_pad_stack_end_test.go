package luabind

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestYieldPaddingStopsAtTheStacksLastSlot: a coroutine whose yield
// wants its results in the last slots of its value stack (a function
// with k locals and then `local a, b = coroutine.yield()`, for every k
// from 100 to 126, so that one of them ends exactly at the 128 slots a
// new coroutine starts with) is resumed with one value and gets nil for
// the other, as in stock Lua: the padding writes up to the call's last
// result and not one slot further.
func TestYieldPaddingStopsAtTheStacksLastSlot(t *testing.T) {
	var b strings.Builder
	b.WriteString("local got = {}\n")
	for k := 100; k <= 126; k++ {
		names := make([]string, k)
		for i := range names {
			names[i] = fmt.Sprintf("x%d", i+1)
		}
		fmt.Fprintf(&b, `local co = coroutine.create(function()
          local %s
          local a, b = coroutine.yield()
          x1 = b
          return x1
        end)
        coroutine.resume(co)
        local ok, v = coroutine.resume(co, 1)
        got[#got + 1] = tostring(ok) .. ":" .. type(v)
`, strings.Join(names, ", "))
	}
	b.WriteString(`npc.state.out = table.concat(got, " ")`)
	fails, out := runYieldBody(t, b.String())
	assert.Empty(t, fails)
	assert.Equal(t, expr.StringValue(strings.TrimSpace(strings.Repeat("true:nil ", 27))), out)
}
