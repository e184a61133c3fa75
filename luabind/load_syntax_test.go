package luabind_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/luabind"
)

// TestSyntaxErrorMissingEnd checks that a body whose "end" is missing is
// named as such, with the line its block begins on, and that other
// syntax errors keep their plain message.
func TestSyntaxErrorMissingEnd(t *testing.T) {
	head := "local mm = require(\"moonmind\")\nreturn mm.role {\n  name = \"Farmer\",\n  state = { hunger = 0 },\n  actions = {\n"
	tests := []struct {
		name   string
		reason string
		body   string
		want   string
	}{
		{"function before the next entry", "the table's } ends the run-on body",
			"    { name = \"eat\", run = function(npc)\n      npc:wait(1)\n    },\n  },\n}\n",
			`r.lua:8:5: syntax error near '}': is an "end" missing? the function that begins on line 6 is still open here`},
		{"if closed, function not", "the end closes the if, so the function is what is open",
			"    { name = \"eat\", run = function(npc)\n      if npc.state.hunger > 1 then\n        npc:wait(1)\n      end },\n  },\n}\n",
			`r.lua:9:11: syntax error near '}': is an "end" missing? the function that begins on line 6 is still open here`},
		{"before another field", "a, cost = 2 reads as an assignment list inside the body",
			"    { name = \"eat\", run = function(npc)\n      npc.state.hunger = 0\n    , cost = 2 },\n  },\n}\n",
			`r.lua:8:12: syntax error near '=': is an "end" missing? the function that begins on line 6 is still open here`},
		{"missing comma", "every block is closed: no hint about end",
			"    { name = \"eat\" cost = 2 },\n  },\n}\n",
			`r.lua:6:23: syntax error near 'cost'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "r.lua"), []byte(head+tc.body), 0o644))
			rt := luabind.NewRuntime(luabind.Options{ScriptsDir: dir})
			defer rt.Close()
			path := filepath.Join(dir, "r.lua")
			_, err := rt.LoadDomain(path)
			require.Error(t, err)
			assert.Equal(t, tc.want, strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)), tc.reason)
		})
	}
}
