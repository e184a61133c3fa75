package engine

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestRestoreTakesADomainListedTwiceButNotTwoOfOneName: the same domain
// listed twice in RestoreOptions.Domains is one domain; two different
// domains of one name (one per worker's runtime) are refused unless
// RestoreOptions.Domain picks each agent's.
func TestRestoreTakesADomainListedTwiceButNotTwoOfOneName(t *testing.T) {
	role := RoleSpec{Name: "Twin", State: []Var{{"x", expr.NumberValue(0)}}}
	d, err := Compile(role)
	require.NoError(t, err)
	other, err := Compile(role)
	require.NoError(t, err)
	w := NewWorld(1)
	w.Add(NewAgent("a", d))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))

	r, err := Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d, nil, d}})
	require.NoError(t, err)
	assert.Same(t, d, r.Agents[0].Domain)

	_, err = Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d, other}})
	assert.EqualError(t, err, `engine: restore: RestoreOptions.Domains has two domains named "Twin" (one per worker's runtime?); give RestoreOptions.Domain, which returns the domain of the worker each agent is pinned to`)

	r, err = Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d, other},
		Domain: func(string, int, string) (*Domain, error) { return other, nil }})
	require.NoError(t, err)
	assert.Same(t, other, r.Agents[0].Domain)
}

// TestASnapshotAfterAReloadNamesNoActionAsRanThatDidNot: an agent whose
// NoRerun action ran for its goal is given a new domain whose actions
// stand in another order. The new domain's goal is a new goal, so the
// pursuit of the old one is over (the agent's next decision would end it
// too), and a snapshot taken before that decision says no action ran: it
// must not name the action that now sits at the old one's index.
func TestASnapshotAfterAReloadNamesNoActionAsRanThatDidNot(t *testing.T) {
	once := BodyFunc(ApplyEffects)
	state := []Var{{"a", expr.BoolValue(false)}, {"b", expr.BoolValue(false)}}
	prep := NewAction("Prep").Effects("a = true").NoRerun().Body(once).Spec()
	fin := NewAction("Fin").Pre("a").Effects("b = true").Body(once).Spec()
	d, err := Compile(RoleSpec{Name: "Chain", State: state, Goals: []GoalSpec{NewGoal("g", "a and b", Normal)},
		Actions: []ActionSpec{prep, fin}})
	require.NoError(t, err)
	reordered, err := Compile(RoleSpec{Name: "Chain", State: state, Goals: []GoalSpec{NewGoal("g", "a and b", Normal)},
		Actions: []ActionSpec{fin, prep}})
	require.NoError(t, err)
	w := NewWorld(1)
	a := NewAgent("x", d)
	w.Add(a)
	w.Tick(0.1)
	var before bytes.Buffer
	require.NoError(t, w.Snapshot(&before))
	require.Contains(t, before.String(), "\"ran\": [\n    \"Prep\"\n   ]", "Prep ran for g")

	a.SetDomain(reordered)
	var after bytes.Buffer
	require.NoError(t, w.Snapshot(&after))
	assert.NotContains(t, after.String(), `"ran"`)
	assert.NotContains(t, after.String(), `"pursuit"`)
	r, err := Restore(bytes.NewReader(after.Bytes()), RestoreOptions{Domains: []*Domain{reordered}})
	require.NoError(t, err)
	tr := &trace{}
	r.OnEvent = tr.add
	r.Tick(0.1)
	assert.Equal(t, []string{"2 plan g", "2 finish Fin"}, tr.lines(record.EventPlan, record.EventFinish, record.EventPlanFailed),
		"a holds: Fin alone, not left out")
}

// TestASensorAddedSinceTheSnapshotFirstRunsWithTheTicksDt: restored with a
// domain that has a sensor the snapshot does not know, the sensor's first
// run is given the tick's dt, as after a reload, not the time since 0.
func TestASensorAddedSinceTheSnapshotFirstRunsWithTheTicksDt(t *testing.T) {
	state := []Var{{"x", expr.NumberValue(0)}}
	d, err := Compile(RoleSpec{Name: "R", State: state})
	require.NoError(t, err)
	var dts []float64
	withSensor, err := Compile(RoleSpec{Name: "R", State: state,
		Sensors: []SensorSpec{{Name: "clock", Run: func(_ *Agent, dt float64) error { dts = append(dts, dt); return nil }}}})
	require.NoError(t, err)
	w := NewWorld(1)
	w.Add(NewAgent("a", d))
	for range 4 {
		w.Tick(0.25)
	}
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{withSensor}})
	require.NoError(t, err)
	r.Tick(0.25)
	r.Tick(0.25)
	assert.Equal(t, []float64{0.25, 0.25}, dts)
}

// TestARestoredAgentDoesNotRecordASensorsSameErrorAgain: a sensor that
// keeps failing with the same error is recorded once; a restored agent
// knows the errors already recorded, for its sensors and its named
// conditions, and does not record them again.
func TestARestoredAgentDoesNotRecordASensorsSameErrorAgain(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{"x", expr.NumberValue(0)}},
		Sensors:    []SensorSpec{{Name: "eyes", Run: func(*Agent, float64) error { return errors.New("too dark") }}},
		Conditions: []ConditionSpec{{Name: "calm", Test: func(*Agent) (bool, error) { return false, errors.New("no pulse") }}}})
	require.NoError(t, err)
	w := NewWorld(1)
	tr := &trace{}
	w.OnEvent = tr.add
	w.Add(NewAgent("a", d))
	w.Tick(0.1)
	w.Tick(0.1)
	require.Equal(t, []string{"1 sensor-failed eyes", "1 condition-failed calm"}, tr.lines(record.EventSensorFailed, record.EventConditionFailed))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))
	r, err := Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	after := &trace{}
	r.OnEvent = after.add
	r.Tick(0.1)
	assert.Empty(t, after.lines(record.EventSensorFailed, record.EventConditionFailed))
}

// TestARestoredInboxHoldsOnlyNumbersTheDomainMayHold: a belief told to an
// agent and not yet taken is saved in its inbox; restored into a domain
// with SafeNumbers, a number it may not hold is refused, as in its state.
func TestARestoredInboxHoldsOnlyNumbersTheDomainMayHold(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "R", State: []Var{{"x", expr.NumberValue(0)}}})
	require.NoError(t, err)
	d.SafeNumbers = true
	w := NewWorld(1)
	a, b := NewAgent("a", d), NewAgent("b", d)
	w.Add(a)
	w.Add(b)
	require.NoError(t, a.Tell("b", "x", expr.NumberValue(2)))
	w.Tick(0.1)
	var buf bytes.Buffer
	require.NoError(t, w.SnapshotAgents(&buf, []*Agent{b}))
	doc := buf.String()
	require.Contains(t, doc, `"inbox":[{"from":"a","var":"x","value":{"number":2}}]`)
	_, err = Restore(strings.NewReader(doc), RestoreOptions{Domains: []*Domain{d}})
	require.NoError(t, err)
	_, err = Restore(strings.NewReader(strings.Replace(doc, `{"number":2}`, `{"special":"NaN"}`, 1)), RestoreOptions{Domains: []*Domain{d}})
	assert.EqualError(t, err, "engine: restore: agent b: inbox x: NaN cannot be stored in state")
}
