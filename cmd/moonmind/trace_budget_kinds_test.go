package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTraceKindFilterShowsConsiderationAndTickBudgetRecords: the records
// of a failing consideration function and of a spent tick budget reach a
// trace file, and trace --kind picks them out.
func TestTraceKindFilterShowsConsiderationAndTickBudgetRecords(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		role, kind, want string
		code             int // a consideration that fails is a script error; a sensor the tick budget cuts is not
	}{
		{"badcons.lua", "consideration-failed",
			`BadConsiderations consideration-failed action=nan reason="consideration \"function@11\" (../../luabind/testdata/tickbudget/badcons.lua:11:40) scored 0: returned nan (0/0), not a finite number"`, 1},
		{"slowsensors.lua", "tick-budget",
			`SlowSensors  tick-budget action=s3 reason="agent \"SlowSensors\" spent this tick's budget of 1000000 work units (sensors 1000001): cut the sensor \"s3\" at ../../luabind/testdata/tickbudget/slowsensors.lua:11;`, 0},
	} {
		trace := filepath.Join(dir, c.kind+".jsonl")
		_, errOut, code := runMain("run", filepath.Join("..", "..", "luabind", "testdata", "tickbudget", c.role),
			"--ticks", "2", "--trace", trace)
		require.Equal(t, c.code, code, errOut)
		out, errOut, code := runMain("trace", trace, "--kind", c.kind)
		require.Equal(t, 0, code, errOut)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.NotEmpty(t, lines)
		for _, l := range lines {
			assert.Contains(t, l, " "+c.kind+" ", "only records of that kind")
		}
		assert.Contains(t, out, c.want)
	}
}
