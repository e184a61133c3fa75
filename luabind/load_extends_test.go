package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extendsChain writes n role files r0 ... r(n-1) into a folder, each
// extending the one before and declaring one state variable and one
// action of its own (and r0 a second action that r(MaxExtendsDepth-1)
// replaces).
func extendsChain(t *testing.T, n int) string {
	dir := t.TempDir()
	for i := range n {
		ext, extra := "", ""
		if i > 0 {
			ext = fmt.Sprintf("extends = 'r%d', ", i-1)
		}
		if i == 0 {
			extra = "{ name = 'shared', cost = 1 }, "
		}
		if i == MaxExtendsDepth-1 {
			extra = "{ name = 'shared', cost = 5 }, "
		}
		src := fmt.Sprintf("return { name = 'R%d', %sstate = { v%d = %d }, actions = { %s{ name = 'a%d' } } }\n", i, ext, i, i, extra, i)
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.lua", i)), []byte(src), 0o644))
	}
	return dir
}

func TestExtendsChainUpToTheLimit(t *testing.T) {
	dir := extendsChain(t, MaxExtendsDepth+1)
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	spec, err := rt.LoadRole(fmt.Sprintf("r%d.lua", MaxExtendsDepth-1))
	require.NoError(t, err)
	require.Len(t, spec.State, MaxExtendsDepth, "every file's variable")
	assert.Equal(t, "v0", spec.State[0].Name, "the root's first")
	require.Len(t, spec.Actions, MaxExtendsDepth+1)
	assert.Equal(t, "shared", spec.Actions[0].Name, "replaced in place")
	assert.Equal(t, 5.0, spec.Actions[0].Cost, "by the last file's")
	assert.Equal(t, fmt.Sprintf("a%d", MaxExtendsDepth-1), spec.Actions[MaxExtendsDepth].Name)

	for name, lr := range rt.roles {
		assert.Len(t, lr.own.State, 1, "%s keeps its own role, not the merged one", name)
	}

	_, err = NewRuntime(Options{ScriptsDir: dir}).LoadRole(fmt.Sprintf("r%d.lua", MaxExtendsDepth))
	require.Error(t, err)
	assert.Equal(t, fmt.Sprintf("%s:1:23: role: extends \"r0\" makes a chain of more than %d roles (luabind.MaxExtendsDepth)",
		filepath.Join(dir, "r1.lua"), MaxExtendsDepth), err.Error())
}

func TestExtendsByNamePastTheLimit(t *testing.T) {
	dir := extendsChain(t, MaxExtendsDepth)
	rt := NewRuntime(Options{ScriptsDir: dir})
	defer rt.Close()
	_, err := rt.LoadRole(fmt.Sprintf("r%d.lua", MaxExtendsDepth-1))
	require.NoError(t, err)
	path := filepath.Join(dir, "more.lua")
	require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf("return { name = 'More', extends = 'R%d' }\n", MaxExtendsDepth-1)), 0o644))
	_, err = rt.LoadRole(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("more.lua:1:25: role: extends \"R%d\" makes a chain of more than %d roles", MaxExtendsDepth-1, MaxExtendsDepth))
}
