package luabind

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func TestUsesClaimsACrateFromLua(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(filepath.Join("testdata", "crate_user.lua"))
	require.NoError(t, err)
	require.Equal(t, "crate", d.Action("fetch").Uses)
	w := engine.NewWorld(1)
	var lines []string
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventPrint || e.Kind == record.EventInterrupt || e.Kind == record.EventPlanFailed {
			lines = append(lines, e.String())
		}
	}
	require.NoError(t, w.AddObject(&engine.Object{Name: "c1", Kind: "crate", Slots: 1}))
	w.Add(engine.NewAgent("blue1", d))
	w.Add(engine.NewAgent("blue2", d))
	for range 5 {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{
		"blue1 at c1",
		"blue2 at c1",
		`tick    1  t=  0.000s  blue2        interrupt   goal=armed action=fetch reason="crate c1 was claimed by blue1 in the same tick (its 1 slot(s) go to the lowest agent IDs)"`,
		`tick    2  t=  0.100s  blue2        plan-failed goal=armed reason="BACKED_OFF: a plan exists only through action \"fetch\", which uses a crate: the only crate (c1) is claimed by blue1"`,
		"blue2 at c1",
	}, lines)
	assert.Equal(t, expr.NumberValue(1), w.Agents[0].Get("magazines"))
	assert.Equal(t, []*engine.Agent{w.Agents[1]}, w.Object("c1").Holders())
}
