package luabind

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// The host methods the LuaLS stubs also annotate: a game provides them
// (the demo and the command line's training ground do), not the binding.
var stubHostMethods = []string{"move_to", "nearest", "position", "shoot"}

func stubNames(t *testing.T, pattern string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "scripts", "types", "moonmind.lua"))
	require.NoError(t, err)
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^function `+pattern+`(\w+)\(`).FindAllStringSubmatch(string(src), -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

// TestTypeStubsMatchTheNPCMethods fails when the binding registers an npc
// method that scripts/types/moonmind.lua does not annotate, or when the
// stubs annotate a method nothing registers.
func TestTypeStubsMatchTheNPCMethods(t *testing.T) {
	host := map[string]HostFunc{}
	for _, n := range stubHostMethods {
		host[n] = func(*HostCall) (bool, error) { return true, nil }
	}
	r := NewRuntime(Options{Host: host})
	defer r.Close()
	_, err := r.EnableLLM(LLMOptions{Unavailable: true})
	require.NoError(t, err)
	var registered []string
	r.methods.ForEach(func(k, _ lua.LValue) { registered = append(registered, k.String()) })
	sort.Strings(registered)
	require.NotEmpty(t, registered)
	assert.Equal(t, registered, stubNames(t, `NPC:`), "npc methods registered (with the host methods %v) vs. annotated", stubHostMethods)
}

// TestTypeStubsMatchTheModule does the same for the functions of
// require("moonmind").
func TestTypeStubsMatchTheModule(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	require.NoError(t, L.DoString(moonmindModule))
	mod, ok := L.Get(-1).(*lua.LTable)
	require.True(t, ok, "the module returns a table")
	var fns []string
	mod.ForEach(func(k, v lua.LValue) {
		if _, isFn := v.(*lua.LFunction); isFn {
			fns = append(fns, k.String())
		}
	})
	sort.Strings(fns)
	require.NotEmpty(t, fns)
	assert.Equal(t, fns, stubNames(t, `mm\.`), "module functions vs. annotated")
}
