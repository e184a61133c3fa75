package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEvalCommand(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"true", "a condition that holds prints true",
			[]string{"eval", "--state", "ammo=12", "--state", "mode=patrol", `ammo > 10 && mode == "patrol"`},
			0, "true\n", ""},
		{"false", "a condition that does not hold prints false, still exit 0",
			[]string{"eval", "--state", "ammo=5", "ammo > 10"}, 0, "false\n", ""},
		{"flags after the expression", "", []string{"eval", "ammo >= 10", "--state", "ammo=10"}, 0, "true\n", ""},
		{"int and decimal", "1 == 1.0", []string{"eval", "--state", "x=1", "x == 1.0"}, 0, "true\n", ""},
		{"quoted state", "a quoted value is text", []string{"eval", "--state", `s="a b"`, `s == 'a b'`}, 0, "true\n", ""},
		{"number is not string", "", []string{"eval", "--state", `s="10"`, `s == 10`}, 0, "false\n", ""},
		{"bool state", "", []string{"eval", "--state", "ready=true", "ready && !hurt", "--state", "hurt=false"}, 0, "true\n", ""},
		{"nil state", "", []string{"eval", "--state", "target=nil", "target == nil"}, 0, "true\n", ""},
		{"last value wins", "", []string{"eval", "--state", "a=1", "--state", "a=2", "a == 2"}, 0, "true\n", ""},
		{"missing", "a missing variable fails even under !; a note says which", []string{"eval", "!ready"}, 0, "false\n",
			"moonmind eval: not set: ready; a condition that reads a missing variable does not hold\n"},
		{"literal", "", []string{"eval", "1 == 1.0"}, 0, "true\n", ""},
		{"lua spellings", "the example of moonmind help eval: and, or, not and ~= are Lua's &&, ||, ! and !=",
			[]string{"eval", "--state", "ammo=3", "--state", "hasWeapon=false", "ammo > 0 and not hasWeapon"}, 0, "true\n", ""},
		{"lua ne", "", []string{"eval", "--state", "mode=patrol", "--state", "panic=false", `mode ~= "attack" or panic`}, 0, "true\n", ""},
		{"empty", "the empty condition holds", []string{"eval", ""}, 0, "true\n", ""},
		{"parse error", "the error shows the text with a caret",
			[]string{"eval", "--state", "ammo=1", "ammo > 10 && && ready"}, 2, "",
			"moonmind eval: col 14: expected a value (a name, a number, a string, true, false, nil or \"(\"), found \"&&\"\n" +
				"\tammo > 10 && && ready\n" +
				"\t             ^\n"},
		{"bad state value", "", []string{"eval", "--state", "ammo=1x", "ammo > 0"}, 2, "",
			"moonmind eval: --state ammo=1x: value col 1: expected a number, found \"1x\"\n\t1x\n\t^\n"},
		{"bad state name", "", []string{"eval", "--state", "1x=3", "a"}, 2, "",
			"moonmind eval: --state 1x=3: expected name=value, the name a letter or _ then letters, digits, _ or .\n"},
		{"no expression", "", []string{"eval", "--state", "a=1"}, 2, "", "moonmind eval: expected one EXPR argument (quote it), got 0\n"},
		{"two expressions", "", []string{"eval", "a", ">", "1"}, 2, "", "moonmind eval: expected one EXPR argument (quote it), got 3\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, &out, &errOut)
			assert.Equal(t, tc.code, code, tc.reason)
			assert.Equal(t, tc.stdout, out.String(), tc.reason)
			assert.Equal(t, tc.stderr, errOut.String(), tc.reason)
		})
	}
}

func TestApplyCommand(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"fraction", "15.1 stays 15.1",
			[]string{"apply", "--state", "x=0", "x = x + 15.1"}, 0, `{"x":15.1}` + "\n", ""},
		{"sorted", "keys sorted by name; unassigned state is kept",
			[]string{"apply", "--state", "zulu=1", "--state", "mode=PATROL", "ammo = 30, mode = ATTACK, alpha = 'a\"b'"},
			0, `{"alpha":"a\"b","ammo":30,"mode":"ATTACK","zulu":1}` + "\n", ""},
		{"swap", "simultaneous assignment", []string{"apply", "--state", "a=1", "--state", "b=two", "a = b, b = a"},
			0, `{"a":"two","b":1}` + "\n", ""},
		{"literals", "", []string{"apply", "t = true, f = false, n = nil, s = \"3\", w = word"},
			0, `{"f":false,"n":null,"s":"3","t":true,"w":"word"}` + "\n", ""},
		{"empty", "", []string{"apply", "--state", "a=1", ""}, 0, `{"a":1}` + "\n", ""},
		{"bad operand", "the error names the variable and the effect",
			[]string{"apply", "--state", "ammo=1", "--state", "bonus=lots", "ammo = ammo + bonus"}, 2, "",
			"moonmind apply: effect \"ammo = ammo + bonus\": in ammo = ..., operand bonus is string, not a number\n"},
		{"missing operand", "", []string{"apply", "x = x + 1"}, 2, "",
			"moonmind apply: effect \"x = x + 1\": in x = ..., operand x is unknown, not a number\n"},
		{"parse error", "", []string{"apply", "x == 1"}, 2, "",
			"moonmind apply: col 3: expected \"=\" (an effect assigns; \"==\" compares), found \"==\"\n\tx == 1\n\t  ^\n"},
		{"word operand", "", []string{"apply", "x = 1 + ghost"}, 2, "",
			"moonmind apply: col 9: expected a number or a numeric variable for \"x\", found \"ghost\", which is not a variable\n" +
				"\tx = 1 + ghost\n\t        ^\n"},
		{"no effects", "", []string{"apply"}, 2, "", "moonmind apply: expected one EFFECTS argument (quote it), got 0\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, &out, &errOut)
			assert.Equal(t, tc.code, code, tc.reason)
			assert.Equal(t, tc.stdout, out.String(), tc.reason)
			assert.Equal(t, tc.stderr, errOut.String(), tc.reason)
		})
	}
}

// TestStateTakesInfAndRefusesNaN: --state reads inf, -inf and infinity
// (any case) as the infinite numbers, refuses nan with a message that
// says why, and keeps a quoted 'NaN' as text; with a role, a variable
// that holds a string keeps these words as text, and one that holds a
// number gets the number.
func TestStateTakesInfAndRefusesNaN(t *testing.T) {
	nan := func(cmd, kv, v string) string {
		return "moonmind " + cmd + ": --state " + kv + ": value " + v + " is not a number state can hold (NaN equals nothing, " +
			"not even itself, and Lua refuses to store it); quote it, '" + v + "', for the text\n"
	}
	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"eval", "--state", "x=Inf", "x > 9007199254740991"}, 0, "true\n", ""},
		{[]string{"eval", "--state", "x=-inf", "x < -9007199254740991"}, 0, "true\n", ""},
		{[]string{"eval", "--state", "x=+Infinity", "x > 0"}, 0, "true\n", ""},
		{[]string{"eval", "--state", "x=inf", `x == "inf"`}, 0, "false\n", ""},
		{[]string{"eval", "--state", "x=NaN", "x > 0"}, 2, "", nan("eval", "x=NaN", "NaN")},
		{[]string{"eval", "--state", "x=-nan", "x > 0"}, 2, "", nan("eval", "x=-nan", "-nan")},
		{[]string{"eval", "--state", "x='NaN'", `x == "NaN"`}, 0, "true\n", ""},
		{[]string{"apply", "--state", "x=-INF", "y = x + 1"}, 0, "{\"x\":\"-Inf\",\"y\":\"-Inf\"}\n", ""},
		{[]string{"apply", "--state", "x=nan", "y = x"}, 2, "", nan("apply", "x=nan", "nan")},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		assert.Equal(t, tc.code, code, tc.args)
		assert.Equal(t, tc.stdout, out.String(), tc.args)
		assert.Equal(t, tc.stderr, errOut.String(), tc.args)
	}

	role := filepath.Join(t.TempDir(), "r.lua")
	require.NoError(t, os.WriteFile(role, []byte(`return { name = "R", state = { mode = "idle", range = 0 },
  goals = { { name = "far", condition = "range > 2" } },
  actions = { { name = "look", pre = "mode == \"inf\"", effects = "range = range + 1" } } }`), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"plan", role, "--state", "mode=inf", "--state", "range=inf"}, &out, &errOut)
	assert.Equal(t, 0, code, errOut.String())
	assert.Equal(t, "role R\nevery goal is satisfied: nothing to do\n", out.String(), "range=inf is the number")
	out.Reset()
	errOut.Reset()
	code = run([]string{"plan", role, "--state", "mode=inf", "--state", "range=0"}, &out, &errOut)
	assert.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "plan: look, look, look", "mode=inf is the text the precondition wants")
	out.Reset()
	errOut.Reset()
	code = run([]string{"plan", role, "--state", "range=NaN"}, &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Equal(t, nan("plan", "range=NaN", "NaN"), errOut.String())
}
