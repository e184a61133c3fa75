package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestACoroutineWaitingInAPcallGetsTheValuesItIsResumedWith: a coroutine
// that yielded inside a pcall receives the values coroutine.resume passes
// it, every one of them and in order, as the yield's results inside the
// protected function; a resume with no values gives the yield none.
func TestACoroutineWaitingInAPcallGetsTheValuesItIsResumedWith(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	got, err := evalChunk(t, rt, `
local co = coroutine.create(function()
  local ok, a, b, c = pcall(function() return coroutine.yield('waiting') end)
  local ok2, n = pcall(function() return select('#', coroutine.yield('again')) end)
  return tostring(ok) .. ' ' .. tostring(a) .. ' ' .. tostring(b) .. ' ' .. tostring(c), tostring(ok2) .. ' ' .. n
end)
local first = { coroutine.resume(co) }
local second = { coroutine.resume(co, 'x', 'y', 'z') }
local third = { coroutine.resume(co) }
return first[2], second[2], third[1], third[2], third[3], coroutine.status(co)`)
	require.NoError(t, err)
	assert.Equal(t, []string{"waiting", "again", "true", "true x y z", "true 0", "dead"}, got)
}
