package main

import (
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
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
