package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadRole feeds arbitrary text to the role loader as a role file: it
// must return a role or an error naming the file, never panic or hang
// (the instruction budget bounds the file's top level).
func FuzzLoadRole(f *testing.F) {
	for _, p := range []string{"../scripts/soldier.lua", "testdata/waiter.lua", "testdata/invalid.lua", "testdata/syntax_error.lua"} {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Add(`return { name = "x", goals = { { name = "g", condition = "a > (" } } }`)
	f.Add(`return { name = "x", actions = { { name = "a", effects = "x = x +" } } }`)
	f.Add(`while true do end`)
	f.Add(`return setmetatable({}, { __index = function() error("boom") end })`)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		path := filepath.Join(dir, "role.lua")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		rt := NewRuntime(Options{ScriptsDir: dir, InstructionBudget: 20000})
		defer rt.Close()
		_, err := rt.LoadDomain(path)
		if err != nil && !strings.Contains(err.Error(), "role.lua") && !strings.Contains(err.Error(), "luabind") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}
