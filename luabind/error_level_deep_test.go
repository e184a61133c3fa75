package luabind

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorLevelReachesTheOutermostFrameOfAFullCallStack: error(msg,
// level) names the line of the function level calls up, however deep:
// in a recursion that fills the call stack (198 calls of f under pcall),
// level 198 is the outermost call of f, stopped at its recursive call on
// line 3; one level further is past the stack, and the message takes
// the line of the pcall that ran it, line 6.
func TestErrorLevelReachesTheOutermostFrameOfAFullCallStack(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	for level, want := range map[int]string{
		2:   "escape.lua:3: boom",
		198: "escape.lua:3: boom",
		199: "escape.lua:6: boom",
	} {
		err := runChunk(rt, fmt.Sprintf(`local function f(n)
  if n == 0 then error("boom", %d) end
  local r = f(n - 1)
  return r
end
local ok, e = pcall(f, 197)
error(e, 0)`, level))
		require.Error(t, err, level)
		assert.Equal(t, want, err.Error(), "level %d", level)
	}
}
