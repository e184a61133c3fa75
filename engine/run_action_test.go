package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// runBody succeeds at its n-th resume (or reports end there), noting
// each resume's dt and whether it was interrupted.
type runBody struct {
	n           int
	end         Status
	startErr    error
	dts         *[]float64
	interrupted *int
}

func (b runBody) Start(*Agent, *Action) (Task, error) {
	if b.startErr != nil {
		return nil, b.startErr
	}
	return &runTask{b: b}, nil
}

type runTask struct {
	b    runBody
	done int
}

func (t *runTask) Resume(dt float64) (Status, error) {
	*t.b.dts = append(*t.b.dts, dt)
	t.done++
	if t.done < t.b.n {
		return Running, nil
	}
	return t.b.end, nil
}

func (t *runTask) Interrupt() { *t.b.interrupted++ }

// TestRunActionResumesTheBodyToItsEnd: RunAction resumes the task by the
// step it is given, 1/60 s for zero or less, until it ends, at most
// maxResumes times (3,600 for zero or less): a task still running then is
// interrupted and the error wraps ErrTooManyResumes; a task that fails
// without an error is reported by its status; an error of Start is the
// ActionError's; an action without a body is not executable.
func TestRunActionResumesTheBodyToItsEnd(t *testing.T) {
	tests := []struct {
		name        string
		body        runBody
		step        float64
		max         int
		want        string // the error, or ""
		resumes     int
		dt          float64
		interrupted int
	}{
		{name: "defaults", body: runBody{n: 3, end: Succeeded}, resumes: 3, dt: 1.0 / 60},
		{name: "negative step and limit", body: runBody{n: 3, end: Succeeded}, step: -1, max: -1, resumes: 3, dt: 1.0 / 60},
		{name: "ends at the limit", body: runBody{n: 3, end: Succeeded}, step: 0.5, max: 3, resumes: 3, dt: 0.5},
		{name: "past the limit", body: runBody{n: 3, end: Succeeded}, step: 0.5, max: 2, resumes: 2, dt: 0.5, interrupted: 1,
			want: `engine: action "Work": the action was still running after the resume limit`},
		{name: "the default limit", body: runBody{n: 3601, end: Succeeded}, resumes: 3600, dt: 1.0 / 60, interrupted: 1,
			want: `engine: action "Work": the action was still running after the resume limit`},
		{name: "failed", body: runBody{n: 2, end: Failed}, resumes: 2, dt: 1.0 / 60,
			want: `engine: action "Work": the task reported failed`},
		{name: "start fails", body: runBody{startErr: errors.New("no tool")},
			want: `engine: action "Work": no tool`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dts []float64
			interrupted := 0
			tt.body.dts, tt.body.interrupted = &dts, &interrupted
			d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"done", expr.BoolValue(false)}},
				Actions: []ActionSpec{NewAction("Work").Effects("done = true").Body(tt.body).Spec()}})
			a := NewAgent("npc", d)
			err := a.RunAction(d.Action("Work"), tt.step, tt.max)
			if tt.want == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tt.want)
				var ae *ActionError
				assert.True(t, errors.As(err, &ae))
			}
			assert.Len(t, dts, tt.resumes)
			for _, dt := range dts {
				require.Equal(t, tt.dt, dt)
			}
			assert.Equal(t, tt.interrupted, interrupted)
			if tt.interrupted > 0 {
				assert.ErrorIs(t, err, ErrTooManyResumes)
			}
		})
	}
	d := compileRoles(t, RoleSpec{Name: "R", State: []Var{{"done", expr.BoolValue(false)}},
		Actions: []ActionSpec{NewAction("Plan").Effects("done = true").Spec()}})
	err := NewAgent("npc", d).RunAction(d.Action("Plan"), 0, 0)
	assert.EqualError(t, err, `engine: action "Plan": the action has no body, so it cannot run`)
	assert.ErrorIs(t, err, ErrNotExecutable)
}
