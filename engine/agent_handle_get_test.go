package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlannerHandleGetterAndUnknownGoal(t *testing.T) {
	_, a, _ := newWorld(t, pretendRole())
	h := a.PlannerHandle()
	require.NotNil(t, h, "NewAgent gives the default handle")
	steps, err := h.PlanForGoal("x")
	require.NoError(t, err)
	assert.Equal(t, []string{"pretend", "build"}, names(steps))

	_, err = a.PlanForGoal("bogus")
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrUnknownName), "as the sentinel's documentation says: %v", err)
	assert.Equal(t, `engine: no goal "bogus"`, err.Error())

	a.SetPlannerHandle(nil)
	assert.Nil(t, a.PlannerHandle(), "planning off")
}
