package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// searcherRole searches where it last saw the enemy once it has lost
// sight of it, while it is still fairly sure of it.
func searcherRole(t *testing.T) *Domain {
	t.Helper()
	d, err := Compile(RoleSpec{
		Name:   "Searcher",
		State:  []Var{{"searched", expr.BoolValue(false)}},
		Memory: perception.Spec{HalfLife: 2, LoseAfter: 0.5},
		Goals:  []GoalSpec{NewGoal("search", "searched", Normal)},
		Actions: []ActionSpec{
			NewAction("search").Pre("memory.enemy.known && memory.enemy.lost && memory.enemy.confidence > 0.3").
				Effects("searched = true").Fulfills("search").Body(timer{secs: 0.2}).Spec(),
		},
		Considerations: []ConsiderationSpec{{Input: "memory.enemy.age", Min: 0, Max: 4}},
	})
	require.NoError(t, err)
	return d
}

// TestConditionsReadTheMemory: memory.<source>.<field> in a condition
// reads the agent's memory as it is when the agent thinks: the search,
// which needs the enemy lost and still believed, starts on the first
// think after sight of it is lost (0.5 s without news), not before, and
// its variables hold the fields then; no belief events are made for them.
func TestConditionsReadTheMemory(t *testing.T) {
	d := searcherRole(t)
	require.Empty(t, d.Undeclared(), "the memory provides what the conditions read")
	require.Equal(t, "memory", d.Sensors[len(d.Sensors)-1].Name)
	w := NewWorld(1)
	a := NewAgent("s", d)
	w.Add(a)
	var starts []float64
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventStart {
			starts = append(starts, e.Time)
		}
	}
	w.Tick(0.1)
	assert.Equal(t, expr.BoolValue(false), a.Get("memory.enemy.known"))
	assert.False(t, a.Get("memory.enemy.age").IsKnown(), "no field of a thing not remembered")
	a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 5, Y: 6})
	for range 5 {
		w.Tick(0.1)
	}
	assert.Empty(t, starts, "in sight until 0.5 s without news")
	assert.Equal(t, expr.BoolValue(false), a.Get("memory.enemy.lost"))
	age, _ := a.Get("memory.enemy.age").AsNumber()
	assert.InDelta(t, 0.4, age, 1e-9)
	w.Tick(0.1)
	require.Len(t, starts, 1)
	assert.InDelta(t, 0.6, starts[0], 1e-9, "the think at 0.6 s finds it lost (age 0.5)")
	assert.Equal(t, expr.BoolValue(true), a.Get("memory.enemy.lost"))
	_, isVar := d.Schema.Lookup("memory.enemy.x")
	assert.False(t, isVar, "only the fields something reads are variables")
}

// TestMemoryNamesAreCheckedWhereTheyAreWritten: a memory name with an
// unknown field, or assigned by an effect, or declared as state, fails
// the compile with its file, line and column and what was meant.
func TestMemoryNamesAreCheckedWhereTheyAreWritten(t *testing.T) {
	at := Pos{File: "scout.lua", Line: 7, Col: 20}
	g := NewGoal("calm", "ready && memory.enemy.agee > 3", Normal)
	g.ConditionAt = at
	act := NewAction("forget").Effects("memory.enemy.known = false").Spec()
	act.EffectsAt = Pos{File: "scout.lua", Line: 9, Col: 18}
	_, err := Compile(RoleSpec{Name: "Scout", File: "scout.lua", State: []Var{{"ready", expr.BoolValue(true)}, {"memory.me.x", expr.NumberValue(0)}},
		Goals: []GoalSpec{g}, Actions: []ActionSpec{act},
		Considerations: []ConsiderationSpec{{Input: "memory.enemy.confidance", Min: 0, Max: 1}}})
	require.Error(t, err)
	assert.Equal(t, `scout.lua: state variable "memory.me.x": names that begin with "memory." read the perception memory (memory.<source>.<field>); rename the variable
scout.lua:7:42: goal "calm" condition: col 23: expected a field of remembered "enemy" (known, lost, age, confidence, x, y, sense), found "agee" (did you mean "age"?) in "ready && memory.enemy.agee > 3"
scout.lua:9:18: action "forget" effects: col 1: expected a variable an effect may assign, found "memory.enemy.known" (no effect may assign a name that begins with "memory.") in "memory.enemy.known = false"
role consideration "memory.enemy.confidance": input "memory.enemy.confidance": expected a field of remembered "enemy" (known, lost, age, confidence, x, y, sense), found "confidance" (did you mean "confidence"?)`, err.Error())
}

// TestASensorNamedMemoryClashesOnlyWhereTheMemoryIsRead: a role that reads
// memory.<source>.<field> may not name a sensor "memory" (the name of the
// sensor that fills those variables): the compile fails at the sensor's
// position; other sensors are fine, and so is a sensor "memory" in a role
// that reads no memory.
func TestASensorNamedMemoryClashesOnlyWhereTheMemoryIsRead(t *testing.T) {
	run := func(*Agent, float64) error { return nil }
	role := func(sensors ...SensorSpec) RoleSpec {
		return RoleSpec{Name: "Scout", File: "scout.lua", State: []Var{{"calm", expr.BoolValue(false)}},
			Goals:   []GoalSpec{NewGoal("calm", "calm", Normal)},
			Actions: []ActionSpec{NewAction("rest").Pre("!memory.enemy.known").Effects("calm = true").Spec()},
			Sensors: sensors}
	}
	d, err := Compile(role(SensorSpec{Name: "eye", Run: run}, SensorSpec{Name: "ear", Run: run}))
	require.NoError(t, err)
	assert.Equal(t, []string{"eye", "ear", "memory"}, sensorNames(d))

	memory := SensorSpec{Name: "memory", Run: run, Pos: Pos{File: "scout.lua", Line: 4, Col: 3}}
	for _, sensors := range [][]SensorSpec{{{Name: "eye", Run: run}, memory}, {memory}} {
		_, err = Compile(role(sensors...))
		require.Error(t, err, "%d sensors", len(sensors))
		assert.Contains(t, err.Error(), `scout.lua:4:3: sensor "memory": the name is taken by the sensor that reads the perception memory`)
	}

	d, err = Compile(RoleSpec{Name: "Plain", State: []Var{{"x", expr.NumberValue(0)}}, Sensors: []SensorSpec{{Name: "memory", Run: run}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"memory"}, sensorNames(d), "the role's own sensor")
}

func sensorNames(d *Domain) []string {
	var out []string
	for _, s := range d.Sensors {
		out = append(out, s.Name)
	}
	return out
}

// TestAMemoryVariableInTheFirstSlotIsRead: a role that declares no state
// and reads the memory has a memory variable in slot 0, filled at every
// think with or without a reactive layer.
func TestAMemoryVariableInTheFirstSlotIsRead(t *testing.T) {
	d, err := Compile(RoleSpec{Name: "Watcher",
		Goals: []GoalSpec{NewGoal("watch", "memory.enemy.known", Normal)}})
	require.NoError(t, err)
	require.Equal(t, 0, d.memReads[0].slot)
	w := NewWorld(1)
	a := NewAgent("w", d)
	w.Add(a)
	w.Tick(0.1)
	assert.Equal(t, expr.BoolValue(false), a.Get("memory.enemy.known"))
	a.Perceive(perception.Stimulus{Source: "enemy", Sense: perception.SenseSight, X: 1, Y: 2})
	w.Tick(0.1)
	assert.Equal(t, expr.BoolValue(true), a.Get("memory.enemy.known"))
}
