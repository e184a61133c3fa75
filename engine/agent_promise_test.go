package engine

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// pretendRole has a cheap action whose body does nothing and a dear one
// that keeps its promise.
func pretendRole() RoleSpec {
	nothing := BodyFunc(func(*Agent, *Action) (Status, error) { return Succeeded, nil })
	return RoleSpec{Name: "Pretender",
		State: []Var{{"x", expr.BoolValue(false)}},
		Goals: []GoalSpec{NewGoal("x", "x", Normal)},
		Actions: []ActionSpec{
			NewAction("pretend").Effects("x = true").Body(nothing).Spec(),
			NewAction("build").Effects("x = true").Cost(5).Body(BodyFunc(ApplyEffects)).Spec(),
		}}
}

func TestBrokenPromisesInARowAreSavedAndRestored(t *testing.T) {
	w, a, _ := newWorld(t, pretendRole())
	w.Tick(0.1)
	recs := a.Recorder.Records()
	require.Equal(t, "promised effects not met: x = true (is false)", recs[len(recs)-1].Reason)
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	var doc struct {
		Agents []struct {
			Broken map[string]int `json:"brokenPromises"`
		} `json:"agents"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	assert.Equal(t, map[string]int{"pretend": 1}, doc.Agents[0].Broken)

	w2, err := Restore(&buf, RestoreOptions{Domains: []*Domain{a.Domain}})
	require.NoError(t, err)
	b := w2.Agents[0]
	var got []string
	w2.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFinish || e.Kind == record.EventPlan {
			got = append(got, e.Kind.String()+" "+e.Action+e.Goal+": "+e.Reason)
		}
	}
	w2.Tick(0.1)
	w2.Tick(0.1)
	assert.Equal(t, []string{
		"plan x: ",
		"finish pretendx: promised effects not met: x = true (is false); backed off for 1 s after 2 broken promises in a row",
		"plan x: left out: pretend (backed off for 0.9 s after a failure)",
		"finish buildx: ",
	}, got, "the count in a row goes on after a load")
	assert.Equal(t, expr.BoolValue(true), b.Get("x"))
}

func TestAKeptPromiseResetsTheCount(t *testing.T) {
	runs := 0
	sometimes := BodyFunc(func(a *Agent, act *Action) (Status, error) {
		runs++
		if runs%2 == 0 {
			n, _ := a.Get("n").AsNumber()
			a.Set("n", expr.NumberValue(n+1))
		}
		return Succeeded, nil
	})
	w, a, _ := newWorld(t, RoleSpec{Name: "R",
		State:   []Var{{"n", expr.NumberValue(0)}},
		Goals:   []GoalSpec{NewGoal("many", "n >= 5", Normal)},
		Actions: []ActionSpec{NewAction("add").Effects("n = n + 1").Body(sometimes).Spec()}})
	for i := 0; i < 10; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, expr.NumberValue(5), a.Get("n"), "every other run keeps its promise: never two broken in a row, never backed off")
	assert.Equal(t, 10, a.Recorder.Count(record.EventFinish))
}
