package luabind

import (
	"bytes"
	"fmt"
	"os"
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

func TestObjectsDeclaredInLua(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget, ScriptsDir: "testdata"})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(filepath.Join("testdata", "crate_objects.lua"))
	require.NoError(t, err)
	objs, err := rt.Objects(d)
	require.NoError(t, err)
	require.Len(t, objs, 3)
	var got []string
	for _, o := range objs {
		got = append(got, fmt.Sprintf("%s %s %d", o.Name, o.Kind, o.Slots))
	}
	assert.Equal(t, []string{"near crate 1", "far crate 2", "medic medic 3"}, got, "far answers 5 magazines: at most its 2 slots")
	assert.Equal(t, expr.NumberValue(10), objs[0].Data.(*ObjectData).Values["x"])

	w := engine.NewWorld(1)
	require.NoError(t, rt.AddObjects(w, d))
	require.NoError(t, rt.AddObjects(w, d), "a second call adds nothing")
	require.Len(t, w.Objects(), 3)
	near, far := w.Object("near"), w.Object("far")
	near.Data.(*ObjectData).Values["magazines"] = expr.NumberValue(0)
	far.Data.(*ObjectData).Values["magazines"] = expr.NumberValue(1)
	require.NoError(t, rt.UpdateObjects(w))
	assert.Equal(t, 0, near.Slots, "near has run out")
	assert.Equal(t, 1, far.Slots)
	assert.Equal(t, 3, w.Object("medic").Slots, "an object without offers keeps its slots")

	// The agents plan and claim with the objects the role declares.
	w.Add(engine.NewAgent("blue1", d))
	w.Add(engine.NewAgent("blue2", d))
	w.Tick(0.1)
	assert.Equal(t, []*engine.Agent{w.Agents[0]}, far.Holders())
}

func TestObjectsDeclaredInLuaErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no kind", `objects = { { name = "c" } }`, `bad.lua:1:36: object "c": kind is required (what actions name in uses, such as "crate")`},
		{"bad slots", `objects = { { name = "c", kind = "crate", slots = 1.5 } }`, `bad.lua:1:64: object "c": slots must be a whole number of agents, 0 or more, not 1.5`},
		{"bad data", `objects = { { name = "c", kind = "crate", data = 3 } }`, `bad.lua:1:64: object "c": data must be a table of name = value, not number`},
		{"bad key", `objects = { { name = "c", kind = "crate", offer = 1 } }`, `bad.lua:1:64: object "c": unknown key "offer" (did you mean "offers"?)`},
		{"twice", `objects = { { name = "c", kind = "crate" }, { name = "c", kind = "crate" } }`, `bad.lua:1:68: object "c" is declared twice (first at line 1)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "bad.lua")
			require.NoError(t, os.WriteFile(path, []byte(`return { name = "R", `+tc.src+` }`), 0o600))
			rt := NewRuntime(Options{InstructionBudget: testBudget})
			t.Cleanup(rt.Close)
			_, err := rt.LoadDomain(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), filepath.Join(dir, tc.want))
		})
	}
}

func TestObjectsOffersAnswerIsChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.lua")
	require.NoError(t, os.WriteFile(path, []byte(`return { name = "R",
  objects = { { name = "c", kind = "crate", data = { n = 1 },
    offers = function(data) return "yes" end } } }`), 0o600))
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(path)
	require.NoError(t, err)
	_, err = rt.Objects(d)
	assert.EqualError(t, err, path+`:3:5: object "c": offers answered a string, not true, false or a number of slots`)
}

func TestObjectsDeclaredInLuaAfterARestore(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget, ScriptsDir: "testdata"})
	t.Cleanup(rt.Close)
	d, err := rt.LoadDomain(filepath.Join("testdata", "crate_objects.lua"))
	require.NoError(t, err)
	w := engine.NewWorld(1)
	require.NoError(t, rt.AddObjects(w, d))
	w.Add(engine.NewAgent("blue1", d))
	w.Tick(0.1)
	require.Equal(t, "near", w.Agents[0].Holds().Name)
	var snap bytes.Buffer
	require.NoError(t, w.Snapshot(&snap))

	back, err := engine.Restore(&snap, engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	near := back.Object("near")
	require.NotNil(t, near)
	require.Nil(t, near.Data, "a snapshot keeps no Data")
	require.NoError(t, rt.AddObjects(back, d))
	require.Len(t, back.Objects(), 3, "nothing added twice")
	assert.Equal(t, []*engine.Agent{back.Agents[0]}, near.Holders(), "the restored claim stays")
	near.Data.(*ObjectData).Values["magazines"] = expr.NumberValue(0)
	require.NoError(t, rt.UpdateObjects(back))
	assert.Equal(t, 0, near.Slots, "its offers function answers for it again")
}
