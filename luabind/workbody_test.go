package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// The set-up the tests of one action body share (runBody, runMirrored and
// the single-resume tests of npc_statemirror_test.go and statewrite_test.go):
// a host method that changes state, a role file's "work" action started
// for a new agent, and its resumes.

// writeMirrorRole writes mirrorRole with body as dir/name.lua and returns
// the file's path.
func writeMirrorRole(t *testing.T, dir, name, body string) string {
	t.Helper()
	file := filepath.Join(dir, name+".lua")
	require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf(mirrorRole, body)), 0o644))
	return file
}

// bumpN is the host method "bump" of those tests: it adds 10 to the
// agent's state variable n and is done at once.
func bumpN(c *HostCall) (bool, error) {
	n, _ := c.Agent.Get("n").AsNumber()
	c.Agent.Set("n", expr.NumberValue(n+10))
	return true, nil
}

// startWork loads the role file into rt, makes an agent called name of
// it, runs set on the agent when set is not nil (state the body starts
// from), and starts the body of the role's action "work".
func startWork(t *testing.T, rt *Runtime, file, name string, set func(*engine.Agent)) (*engine.Agent, engine.Task) {
	t.Helper()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	a := engine.NewAgent(name, d)
	if set != nil {
		set(a)
	}
	act := d.Action("work")
	task, err := act.Body.Start(a, act)
	require.NoError(t, err)
	return a, task
}

// resumeWork resumes task with 0.1 s while it runs, at most n times,
// calling before(i) ahead of resume i when before is not nil (the game
// changing state between ticks), and returns the work units of each
// resume and the error that ended the body.
func resumeWork(task engine.Task, n int, before func(i int)) (works []int64, err error) {
	st := engine.Running
	for i := 0; i < n && st == engine.Running && err == nil; i++ {
		if before != nil {
			before(i)
		}
		st, err = task.Resume(0.1)
		works = append(works, task.(*luaTask).work)
	}
	return works, err
}
