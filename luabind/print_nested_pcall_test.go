package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrintNamesTheScriptLineThroughNestedPcalls: print called through
// pcall(pcall, ..., print, x) runs in a chain of pcall worker coroutines
// that hold no script frame; its prefix names the script's line found by
// climbing from each coroutine to the one that resumed it. The climb is
// bounded at 64 coroutines: under 63 nested pcalls (64 workers) the line
// is found, past that the text is printed without it.
func TestPrintNamesTheScriptLineThroughNestedPcalls(t *testing.T) {
	var lines []string
	rt := NewRuntime(Options{Print: func(s string) { lines = append(lines, s) }})
	defer rt.Close()
	for _, n := range []int{0, 1, 62, 63} {
		src := "local x = 1\npcall(" + strings.Repeat("pcall, ", n) + "print, 'x')"
		require.NoError(t, runChunk(rt, src), n)
	}
	assert.Equal(t, []string{"escape.lua:2: x", "escape.lua:2: x", "escape.lua:2: x", "x"}, lines)
}
