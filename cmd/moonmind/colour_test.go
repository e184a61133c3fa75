package main

import (
	"bytes"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
)

func TestColourOnlyOnATerminalWithoutNoColor(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	for _, tc := range []struct {
		name     string
		terminal bool
		vars     map[string]string
		want     bool
	}{
		{"terminal", true, map[string]string{"TERM": "xterm"}, true},
		{"not a terminal", false, map[string]string{"TERM": "xterm"}, false},
		{"NO_COLOR", true, map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, false},
		{"empty NO_COLOR counts as unset", true, map[string]string{"NO_COLOR": ""}, true},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false},
	} {
		assert.Equal(t, tc.want, colourOK(tc.terminal, env(tc.vars)), tc.name)
	}
	assert.False(t, colourFor(&bytes.Buffer{}), "a buffer is no terminal")

	f := finding{Pos: engine.Pos{File: "a.lua", Line: 3, Col: 5}, Severity: "error", Msg: "m"}
	assert.Equal(t, "a.lua:3:5: \x1b[31merror\x1b[0m: m", f.format(true))
	assert.Equal(t, "a.lua:3:5: error: m", f.format(false))
	w := finding{Pos: f.Pos, Severity: "warning", Msg: "m"}
	assert.Equal(t, "a.lua:3:5: \x1b[33mwarning\x1b[0m: m", w.format(true))
}
