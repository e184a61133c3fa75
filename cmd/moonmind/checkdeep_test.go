package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMissingCommaBetweenFields: gopher-lua places a syntax error at the
// last character of the token it names, so a field name after a field
// that lacks its comma ("cost = 2" then "utility = ...") is still the
// first token of its line, and the error moves to the end of the line
// before.
func TestMissingCommaBetweenFields(t *testing.T) {
	cases := []struct {
		name, src, msg string
		line, col      int
		wantLine       int
		wantCol        int
		hint           bool
	}{
		{"after a number", "return {\n  cost = 2\n  utility = {},\n}\n", "syntax error near 'utility'", 3, 9, 2, 11, true},
		{"after a string", "return {\n  pre = \"a > 1\"\n  effects = \"a = 2\",\n}\n", "syntax error near 'effects'", 3, 9, 2, 16, true},
		{"after a table, before a table", "return {\n  { a = 1 }\n  { b = 2 },\n}\n", "syntax error near '{'", 3, 3, 2, 12, true},
		{"after a comment", "return {\n  cost = 2 -- dear\n  utility = {},\n}\n", "syntax error near 'utility'", 3, 9, 2, 11, true},
		{"not the first token", "return {\n  cost = 2,\n  utility == {},\n}\n", "syntax error near '=='", 3, 12, 3, 12, false},
		{"after then", "if x then\n  = 1\nend\n", "syntax error near '='", 2, 3, 2, 3, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := missingComma(finding{Pos: engine.Pos{File: "r.lua", Line: c.line, Col: c.col}, Severity: "error", Msg: c.msg}, c.src)
			assert.Equal(t, c.wantLine, f.Pos.Line, f.Msg)
			assert.Equal(t, c.wantCol, f.Pos.Col, f.Msg)
			if c.hint {
				assert.Contains(t, f.Msg, "is a comma missing at the end of line")
			} else {
				assert.Equal(t, c.msg, f.Msg)
			}
		})
	}
}

// TestUndeclaredEffectTargets: an effect target the state does not
// declare is an error when no function writes it, a note when a body
// writes it by name, a warning when a body writes by computed names; a
// declared target is no finding.
func TestUndeclaredEffectTargets(t *testing.T) {
	role := func(effects, body string) string {
		return "return {\n  name = \"Keeper\",\n  state = { shop_open = false, k = \"shop_open\" },\n" +
			"  goals = { { name = \"trading\", condition = \"shop_open\" } },\n" +
			"  actions = {\n    { name = \"open\",\n      effects = \"" + effects + "\",\n      fulfills = { \"trading\" },\n" +
			"      run = function(npc) " + body + " end },\n  },\n}\n"
	}
	cases := []struct {
		name, effects, body string
		code                int
		want                string
	}{
		{"declared", "shop_open = true", "npc.state.shop_open = true", 0, ""},
		{"nothing writes it", "shop_opened = true", "npc.state.shop_open = true", 1,
			`:7:7: error: action "open": effect "shop_opened = true" assigns shop_opened, which the role's state does not declare and no body, sensor or reactive plan writes: the promise is never kept, and every run of the action reports it unmet (did you mean "shop_open"?)`},
		{"the body writes it", "shop_open = true, sign = true", "npc.state.shop_open = true; npc.state.sign = true", 0,
			`:7:7: note: action "open": effect target sign is not declared in the role's state: it is unknown (every condition on it false) until a function writes it; declare it in state with its starting value`},
		{"computed names", "shop_opened = true", "npc.state[npc.state.k] = true", 1,
			`:7:7: warning: action "open": effect "shop_opened = true" assigns shop_opened, which the role's state does not declare and no function writes by name (action "open" writes variables by computed names, perhaps this one) (did you mean "shop_open"?)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keeper.lua")
			require.NoError(t, os.WriteFile(path, []byte(role(c.effects, c.body)), 0o644))
			out, errOut, code := runMain("check", path)
			assert.Equal(t, c.code, code, out+errOut)
			if c.want == "" {
				assert.Contains(t, out, path+": ok: role Keeper")
				return
			}
			assert.Contains(t, out, path+c.want+"\n")
			assert.Equal(t, 1, strings.Count(out, path+":7:"), "one finding: %s", out)
		})
	}
}
