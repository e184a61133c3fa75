package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestPcallYieldsThroughNestingAndCoroutines: a yield inside pcall, with
// pcalls nested, inside the script's own coroutines and wrap functions,
// and through xpcall, reaches the right resumer, and each pcall returns
// its function's results or error.
func TestPcallYieldsThroughNestingAndCoroutines(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"a"}, []string{"pcall_nested.lua"})
	wd.run(10, 0.1)
	a := wd.agents["a"]
	assert.Equal(t, expr.BoolValue(true), a.Get("done"))
	assert.Equal(t, expr.StringValue("truetrueinner;2,50,end!,dead;w1,falselate;handled x;false attempt to call a number value"), a.Get("log"))
}
