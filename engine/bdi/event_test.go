package bdi_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

func TestKindsReadAsLuaWritesThem(t *testing.T) {
	names := bdi.KindNames()
	assert.Equal(t, []string{"goal_added", "goal_failed", "goal_removed", "belief_added", "belief_removed",
		"perceived", "lost", "forgotten"}, names)
	for _, n := range names {
		k, ok := bdi.ParseKind(n)
		require.True(t, ok, n)
		assert.Equal(t, n, k.String())
		one := 0
		for _, is := range []bool{k.IsGoal(), k.IsBelief(), k.IsPerception()} {
			if is {
				one++
			}
		}
		assert.Equal(t, 1, one, "%s is of exactly one family", n)
	}
	for _, bad := range []string{"", "invalid", "goal"} {
		_, ok := bdi.ParseKind(bad)
		assert.False(t, ok, bad)
	}
	assert.Equal(t, "invalid", bdi.Kind(0).String())
	assert.Equal(t, "invalid", bdi.Kind(9).String())
	names[0] = "changed"
	assert.Equal(t, "goal_added", bdi.KindNames()[0], "KindNames returns a copy")
}

type named struct{}

func (named) String() string { return "a named thing" }

func TestDescribeFormatsResultsForTraces(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, ""},
		{"go string", "door", `"door"`},
		{"number", 0.1 + 0.2, "0.3"},
		{"value number", expr.NumberValue(2.5), "2.5"},
		{"value string", expr.StringValue("x"), `"x"`},
		{"error", errors.New("r.lua:1: boom"), "r.lua:1: boom"},
		{"stringer", named{}, "a named thing"},
		{"other", []int{1, 2}, "[1 2]"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, bdi.Describe(tc.v), tc.name)
	}
	ev := bdi.Event{Kind: bdi.BeliefRemoved, Name: "door", Old: expr.StringValue("open")}
	assert.Equal(t, `belief_removed door (was "open")`, ev.String())
}

func TestALibraryKeepsItsPlansInOrder(t *testing.T) {
	d := domain(t, "x")
	plans := []*bdi.Plan{{Name: "one", On: bdi.GoalAdded, Body: done(nil)}, {On: bdi.BeliefAdded, Body: done(nil)}}
	lib, err := bdi.NewLibrary(d, plans)
	require.NoError(t, err)
	assert.Equal(t, 2, lib.Len())
	assert.Equal(t, plans, lib.Plans())

	// A mind without a configuration has no plans; a Func task ends in
	// one resume, so Stop has nothing to end.
	a := engine.NewAgent("a", d)
	m := bdi.New(a, nil)
	require.NotNil(t, m.Config())
	assert.Nil(t, m.Config().Library)
	task, err := done(7.0).Start(a, &bdi.Event{Kind: bdi.GoalAdded}, nil)
	require.NoError(t, err)
	task.Stop()
	st, err := task.Resume(0.1)
	require.NoError(t, err)
	assert.Equal(t, engine.Succeeded, st)
	assert.Equal(t, 7.0, task.Result())
}
