package luabind

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// TestBrokenScripts runs each broken script next to a healthy agent: each
// gives a clear error naming its file and line, and the healthy agent
// finishes its work.
func TestBrokenScripts(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		file   string
		kind   record.EventKind // 0: the file must not load
		want   string           // part of the error, after "testdata/broken/"
	}{
		{"syntax error", "the load fails with file:line:col", "syntax.lua", 0, "syntax.lua:5:7: syntax error near 'goals'"},
		{"runtime error in a body", "the action fails", "body_error.lua", record.EventFail,
			"body_error.lua:12: npc.state.missing: no such state variable"},
		{"runtime error in a sensor", "the sensor failure is recorded", "sensor_error.lua", record.EventSensorFailed,
			"sensor_error.lua:10: cannot perform add operation between number and nil"},
		{"runaway loop in a body", "the budget stops it", "runaway.lua", record.EventFail, "runaway.lua:12: instruction budget exceeded"},
		{"runaway loop in a sensor", "the budget stops it", "runaway_sensor.lua", record.EventSensorFailed,
			"runaway_sensor.lua:9: instruction budget exceeded"},
		{"huge string", "refused before allocating", "huge_string.lua", record.EventFail,
			"huge_string.lua:11: string too long: 10000000000 bytes"},
		{"table growth", "the budget stops it", "table_growth.lua", record.EventFail, "table_growth.lua:13: instruction budget exceeded"},
		{"wait in a sensor", "a sensor is not a coroutine", "wait_in_sensor.lua", record.EventSensorFailed,
			"wait_in_sensor.lua:9: npc:wait can only be called in an action body (run), not in a sensor"},
		{"yield across a Go call", "gopher-lua cannot suspend string.gsub", "yield_across_go.lua", record.EventFail,
			"yield_across_go.lua:14: cannot wait or yield inside a callback of string.gsub"},
		{"yield inside a metamethod", "refused at the yield, with the script's line", "yield_in_metamethod.lua", record.EventFail,
			"yield_in_metamethod.lua:15: cannot wait or yield inside a metamethod"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := NewRuntime(Options{InstructionBudget: testBudget})
			defer rt.Close()
			path := filepath.Join("broken", tc.file)
			if tc.kind == 0 {
				_, err := rt.LoadDomain(filepath.Join("testdata", path))
				require.Error(t, err, tc.reason)
				assert.Contains(t, err.Error(), filepath.Join("testdata", "broken", tc.want), tc.reason)
				assert.Zero(t, rt.ScriptErrors(), "a file that does not load is LoadDomain's error, not a script error as agents run")
				return
			}
			wd := newWorld(t, rt, []string{"broken", "waiter"}, []string{path, "waiter.lua"})
			wd.run(25, 0.1)
			e := wd.first("broken", tc.kind)
			require.NotNil(t, e, "no %s event: %v", tc.kind, wd.events)
			assert.Contains(t, e.Reason, tc.want, tc.reason)
			assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent kept running")
			failed := 0
			for _, e := range wd.events {
				if e.Agent == "broken" && e.Kind == tc.kind {
					failed++
				}
			}
			if tc.kind == record.EventFail {
				assert.Equal(t, failed, rt.ScriptErrors(), "each fail record is a script error")
			} else {
				// A sensor that fails every tick is recorded once, and
				// counted each time.
				assert.GreaterOrEqual(t, rt.ScriptErrors(), max(failed, 2), "every failing run of the sensor is a script error")
			}
		})
	}
}

func TestBrokenConsiderationIsRecorded(t *testing.T) {
	rt := NewRuntime(Options{InstructionBudget: testBudget})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"broken", "waiter"}, []string{filepath.Join("broken", "consideration_error.lua"), "waiter.lua"})
	wd.run(25, 0.1)
	n, err := wd.agents["broken"].Utility().LastError()
	require.Error(t, err)
	assert.Positive(t, n)
	assert.Contains(t, err.Error(), filepath.Join("testdata", "broken", "consideration_error.lua")+":11: cannot perform add operation")
	assert.Equal(t, expr.BoolValue(true), wd.agents["waiter"].Get("done"), "the other agent kept running")
}

func TestSparseArrayKeysStayCheap(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	wd := newWorld(t, rt, []string{"a"}, []string{filepath.Join("broken", "sparse_array.lua")})
	wd.run(3, 0.1)
	assert.Equal(t, expr.BoolValue(true), wd.agents["a"].Get("done"),
		"64 tables with key 2^26-1 each would pad 64 GiB of array; in the hash part they cost a few bytes")
}
