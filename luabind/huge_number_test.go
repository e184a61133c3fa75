package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestHugeNumberErrorsAreShort: a number too big for state is named in its
// shortest form (1e+300), not as 301 decimal digits that bury the message,
// and math.huge, which a Lua programmer takes for infinity, gets a hint.
func TestHugeNumberErrorsAreShort(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: "testdata/huge"})
	defer rt.Close()
	_, err := rt.LoadDomain("far.lua")
	require.Error(t, err)
	assert.Equal(t, "testdata/huge/far.lua:5:13: state.reach: 1.7976931348623157e+308 is not an exact integer: "+
		"numbers of magnitude 2^53 or more are refused, since Lua has already rounded them "+
		"(Lua numbers are float64; 2^53 + 1 reads as 2^53); keep big ids as strings "+
		"(math.huge is the largest float here, not infinity: write 1/0 for infinity)", err.Error())

	d, err := rt.LoadDomain("near.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	var fails []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails = append(fails, e.Reason)
		}
	}
	w.Add(engine.NewAgent("near", d))
	w.Tick(0.1)
	require.Len(t, fails, 1)
	assert.Equal(t, "testdata/huge/near.lua:5: npc.state.n: 1e+300 is not an exact integer: "+
		"numbers of magnitude 2^53 or more are refused, since Lua has already rounded them "+
		"(Lua numbers are float64; 2^53 + 1 reads as 2^53); keep big ids as strings", fails[0])
}
