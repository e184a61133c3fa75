package luabind

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bombChildEnv marks the subprocess of TestMemoryBombsUnderUlimit.
const bombChildEnv = "MOONMIND_MEMORY_BOMB_CHILD"

// TestMemoryBombsUnderUlimit runs the memory bombs of the hostile corpus
// in a subprocess limited to 3,000,000 KiB of address space (ulimit -v):
// without the memory limits any of them would end it with "fatal error:
// out of memory"; with them each fails its action and the process lives.
func TestMemoryBombsUnderUlimit(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector needs more address space than ulimit -v 3000000 leaves")
	}
	if testing.Short() {
		t.Skip("runs the memory bombs in a subprocess")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash for ulimit")
	}
	cmd := exec.Command(bash, "-c", `ulimit -v 3000000 && exec "$0" -test.run '^TestMemoryBombsChild$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), bombChildEnv+"=1", "GOMAXPROCS=2")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the subprocess died:\n%s", out)
	assert.Contains(t, string(out), "--- PASS: TestMemoryBombsChild")
	assert.NotContains(t, string(out), "out of memory")
}

// TestMemoryBombsChild is the subprocess of TestMemoryBombsUnderUlimit.
func TestMemoryBombsChild(t *testing.T) {
	if os.Getenv(bombChildEnv) == "" {
		t.Skip("run by TestMemoryBombsUnderUlimit")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "hostile", "mem_*.lua"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for round := range 2 { // the memory of the first round is released
		for _, path := range files {
			file := filepath.Base(path)
			_, budget, _ := corpusHeader(t, path)
			got, wd := runHostile(t, file, budget)
			assert.Contains(t, got, "memory limit exceeded (64 MiB)", "round %d, %s", round, file)
			require.NotNil(t, wd)
			assert.True(t, strings.HasPrefix(got, filepath.Join("testdata", "hostile", file)+":"), got)
		}
	}
}
