package luabind

import (
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnknownHostMethodNamesTheGamesMethods: a body that calls a method the
// game does not provide fails with the file and line, and the message lists
// the host methods the game has (sorted), so the designer sees what to call.
func TestUnknownHostMethodNamesTheGamesMethods(t *testing.T) {
	done := func(c *HostCall) (bool, error) { return true, nil }
	cases := []struct {
		name string
		host map[string]HostFunc
		want string
	}{
		{"some", map[string]HostFunc{"shoot": done, "move_to": done, "nearest": done},
			`:9: npc has no field or method "sell" (did you mean "tell"?); the game's host methods are move_to, nearest, shoot`},
		{"none", nil,
			`:9: npc has no field or method "sell" (did you mean "tell"?); the game provides no host methods (luabind.Options.Host)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := NewRuntime(Options{Host: c.host})
			defer rt.Close()
			wd := newWorld(t, rt, []string{"mira"}, []string{"unknown_host.lua"})
			wd.run(2, 0.1)
			fail := wd.first("mira", record.EventFail)
			require.NotNil(t, fail, "the body failed its action")
			assert.Equal(t, "sell", fail.Action)
			assert.Equal(t, filepath.Join("testdata", "unknown_host.lua")+c.want, fail.Reason)
		})
	}
}

// TestRoleFileWithoutReturn: a file that builds its role and forgets to
// return it is told so, at its last line, column 1 (columns are 1-based).
func TestRoleFileWithoutReturn(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	_, err := rt.LoadDomain(filepath.Join("testdata", "no_return.lua"))
	require.Error(t, err)
	assert.Equal(t, filepath.Join("testdata", "no_return.lua")+":6:1: a role file must return a role table, not nil "+
		"(the file returns nothing: write return before the role, as in return mm.role { ... } or return { name = ... })", err.Error())

	_, err = rt.LoadDomain(filepath.Join("testdata", "returns_string.lua"))
	require.Error(t, err)
	assert.Equal(t, filepath.Join("testdata", "returns_string.lua")+":1:1: a role file must return a role table, not string", err.Error())
}
