package engine_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// survey is a typed fact: the ore of each vein found, and how many veins
// were mined. Its fields are exported so JSONFacts saves them.
type survey struct {
	Veins []int
	Mined int
}

// minerDomain plans survey then mine; what a mine step yields, and when
// a new survey is needed, depend on the Survey fact's value.
func minerDomain(t testing.TB) *engine.Domain {
	d, err := engine.Compile(engine.RoleSpec{Name: "Miner",
		State: []engine.Var{{Name: "ore", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "ore >= 12", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("survey").Output("Survey").Body(engine.BodyFunc(func(a *engine.Agent, _ *engine.Action) (engine.Status, error) {
				s := survey{Veins: []int{1 + a.Rand.IntN(5), 1 + a.Rand.IntN(5), 1 + a.Rand.IntN(5)}}
				a.SetFact("Survey", s)
				return engine.Succeeded, nil
			})).Spec(),
			engine.NewAction("mine").Inputs("Survey").Effects("ore = ore + 4").Body(engine.BodyFunc(func(a *engine.Agent, _ *engine.Action) (engine.Status, error) {
				s, ok := a.Fact("Survey").(survey)
				if !ok {
					return engine.Failed, assert.AnError
				}
				ore, _ := a.Get("ore").AsNumber()
				a.Set("ore", expr.NumberValue(ore+float64(s.Veins[s.Mined])))
				s.Mined++
				if s.Mined == len(s.Veins) {
					a.SetFact("Survey", nil)
				} else {
					a.SetFact("Survey", s)
				}
				return engine.Succeeded, nil
			})).Spec(),
		}})
	require.NoError(t, err)
	d.Facts = engine.JSONFacts{Types: map[string]any{"Survey": survey{}}}
	return d
}

// runMiners ticks w n times; between ticks the game takes ore from a
// random miner, so the miners keep planning.
func runMiners(w *engine.World, n int) map[string][]record.Event {
	out := map[string][]record.Event{}
	w.OnEvent = func(e record.Event) { out[e.Agent] = append(out[e.Agent], e) }
	for i := 0; i < n; i++ {
		a := w.Agents[w.Rand.IntN(len(w.Agents))]
		if ore, _ := a.Get("ore").AsNumber(); ore >= 12 {
			a.Set("ore", expr.NumberValue(float64(w.Rand.IntN(6))))
		}
		w.Tick(1.0 / 60)
	}
	w.OnEvent = nil
	return out
}

func TestSnapshotRestoresTypedFacts(t *testing.T) {
	d := minerDomain(t)
	orig := engine.NewWorld(7)
	for _, name := range []string{"ann", "bob", "cat"} {
		orig.Add(engine.NewAgent(name, d))
	}
	runMiners(orig, 300)
	held := 0
	for _, a := range orig.Agents {
		if a.Fact("Survey") != nil {
			held++
		}
	}
	require.Positive(t, held, "some miner holds a survey at tick 300")

	var buf bytes.Buffer
	require.NoError(t, orig.Snapshot(&buf))
	assert.Contains(t, buf.String(), `"factValues"`)
	restored, err := engine.Restore(bytes.NewReader(buf.Bytes()), engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	for i, a := range orig.Agents {
		assert.Equal(t, a.Fact("Survey"), restored.Agents[i].Fact("Survey"), "%s: the fact comes back with its Go type", a.Name)
	}

	evA, evB := runMiners(orig, 300), runMiners(restored, 300)
	for _, a := range orig.Agents {
		require.NotEmpty(t, evA[a.Name])
		assert.Equal(t, evA[a.Name], evB[a.Name], "agent %s decides as the original", a.Name)
		for _, e := range evB[a.Name] {
			assert.NotEqual(t, record.EventFail, e.Kind, "%s: %s", a.Name, e)
		}
	}
}

func TestSnapshotFactsWithoutTypesAndUnencodable(t *testing.T) {
	d := minerDomain(t)
	d.Facts = nil // JSONFacts{}: no Go types known
	w := engine.NewWorld(1)
	a := engine.NewAgent("ann", d)
	w.Add(a)
	require.True(t, a.SetFact("Survey", survey{Veins: []int{2, 3}, Mined: 1}))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := engine.Restore(bytes.NewReader(buf.Bytes()), engine.RestoreOptions{Domains: []*engine.Domain{d}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"Veins": []any{2.0, 3.0}, "Mined": 1.0}, r.Agents[0].Fact("Survey"),
		"a type JSONFacts does not list decodes as encoding/json decodes into an any")
	assert.Equal(t, expr.BoolValue(true), r.Agents[0].Get("Survey"))

	require.True(t, a.SetFact("Survey", func() {}))
	err = w.Snapshot(&bytes.Buffer{})
	require.Error(t, err)
	assert.Equal(t, "engine: snapshot: agent ann: fact Survey: json: unsupported type: func()", err.Error())
}
