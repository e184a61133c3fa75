package engine_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// An agent's settings may be infinite (StuckAfter = +Inf: never STUCK;
// Commitment = +Inf: never switch picks) or NaN, and its timers follow
// them (a re-score due at +Inf). A snapshot keeps each exactly, as a
// string where JSON has no number, and the restored world goes on with the
// same decisions.
func TestSnapshotKeepsNonFiniteSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    float64
		json string
	}{{"+Inf", math.Inf(1), `"+Inf"`}, {"-Inf", math.Inf(-1), `"-Inf"`}, {"NaN", math.NaN(), `"NaN"`}} {
		for _, field := range []string{"retryDelay", "stuckAfter", "commitment", "rethinkEvery"} {
			t.Run(field+"="+tc.name, func(t *testing.T) {
				w, domains := newTestWorld(t, 2, 0)
				a := w.Agents[0]
				set := map[string]*float64{"retryDelay": &a.RetryDelay, "stuckAfter": &a.StuckAfter, "commitment": &a.Commitment, "rethinkEvery": &a.RethinkEvery}
				*set[field] = tc.f
				run(w, 90)
				var first, second bytes.Buffer
				require.NoError(t, w.Snapshot(&first))

				var doc struct {
					Agents []map[string]json.RawMessage `json:"agents"`
				}
				require.NoError(t, json.Unmarshal(first.Bytes(), &doc))
				require.Len(t, doc.Agents, 2)
				assert.Equal(t, tc.json, string(doc.Agents[0][field]), "written as a string JSON can hold")

				r, err := engine.Restore(bytes.NewReader(first.Bytes()), engine.RestoreOptions{Domains: domains})
				require.NoError(t, err)
				got := map[string]float64{"retryDelay": r.Agents[0].RetryDelay, "stuckAfter": r.Agents[0].StuckAfter,
					"commitment": r.Agents[0].Commitment, "rethinkEvery": r.Agents[0].RethinkEvery}[field]
				assert.Equal(t, math.Float64bits(tc.f), math.Float64bits(got), "restored bit for bit")
				require.NoError(t, r.Snapshot(&second))
				assert.Equal(t, first.String(), second.String())

				evA, evB := run(w, 120), run(r, 120)
				assert.Equal(t, evA["foragera"], evB["foragera"])
				assert.NotEmpty(t, evA["foragera"])
			})
		}
	}
}

// A number written as a string other than the three is refused, naming it.
func TestRestoreRefusesOtherNumberStrings(t *testing.T) {
	w, domains := newTestWorld(t, 1, 0)
	w.Agents[0].StuckAfter = math.Inf(1)
	run(w, 10)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	doc := strings.Replace(buf.String(), `"stuckAfter": "+Inf"`, `"stuckAfter": "forever"`, 1)
	require.NotEqual(t, buf.String(), doc)
	_, err := engine.Restore(strings.NewReader(doc), engine.RestoreOptions{Domains: domains})
	require.Error(t, err)
	assert.Equal(t, `engine: restore: json: cannot unmarshal string "forever" (a number, or one of NaN, +Inf, -Inf) into Go struct field agentSnap.agents.stuckAfter of type float64`, err.Error())
}

// A consideration's input of ±Inf is recorded as ±MaxFloat64 (as NaN is
// recorded as 0), so the pick record and a snapshot stay valid JSON.
func TestPickRecordsOfInfiniteInputsAreValidJSON(t *testing.T) {
	for _, tc := range []struct {
		in, recorded float64
	}{{math.Inf(1), math.MaxFloat64}, {math.Inf(-1), -math.MaxFloat64}, {4, 4}} {
		d, err := engine.Compile(engine.RoleSpec{
			Name:   "U",
			State:  []engine.Var{{Name: "danger", Value: expr.NumberValue(0)}},
			Decide: "utility",
			Actions: []engine.ActionSpec{
				{Name: "rest", Body: engine.BodyFunc(engine.ApplyEffects), Considerations: []engine.ConsiderationSpec{{Input: "danger", Min: 10, Max: 0}}},
				{Name: "flee", Body: engine.BodyFunc(engine.ApplyEffects), Considerations: []engine.ConsiderationSpec{{Input: "danger", Min: 0, Max: 10}}},
			},
		})
		require.NoError(t, err)
		w := engine.NewWorld(1)
		a := engine.NewAgent("u", d)
		a.Recorder = record.New(8)
		w.Add(a)
		a.Set("danger", expr.NumberValue(tc.in))
		w.Tick(1.0 / 60)

		var pick *record.Event
		for _, e := range a.Recorder.Records() {
			if e.Kind == record.EventPick {
				pick = &e
			}
		}
		require.NotNil(t, pick, "danger %v: a pick", tc.in)
		require.Len(t, pick.Considerations, 1)
		assert.Equal(t, tc.recorded, pick.Considerations[0].Input)
		_, err = json.Marshal(pick)
		assert.NoError(t, err)
		var buf bytes.Buffer
		assert.NoError(t, w.Snapshot(&buf))
	}
}
