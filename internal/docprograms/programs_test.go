// Package docprograms holds a test that builds and runs every whole Go
// program the documentation shows, so a page never shows code that no
// longer compiles.
package docprograms

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goBlock is a fenced Go block of a Markdown page.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// lastLines is what each page says its program prints last.
var lastLines = map[string]string{
	"docs/embedding.md": "wood: 3",
}

// TestDocumentedProgramsBuildAndRun: every Go block of README.md and
// docs/*.md that is a whole program (it starts with "package main")
// builds against this checkout and runs to its end; where the page says
// what the program prints last, it prints that.
func TestDocumentedProgramsBuildAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append(pages, filepath.Join(root, "README.md"))
	found := map[string]bool{}
	for _, page := range pages {
		src, err := os.ReadFile(page)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, page)
		for i, m := range goBlock.FindAllSubmatch(src, -1) {
			if !strings.HasPrefix(string(m[1]), "package main\n") {
				continue
			}
			found[rel] = true
			t.Run(rel+"#"+string(rune('1'+i)), func(t *testing.T) {
				dir := t.TempDir()
				file := filepath.Join(dir, "main.go")
				require.NoError(t, os.WriteFile(file, m[1], 0o644))
				bin := filepath.Join(dir, "program")
				build := exec.Command("go", "build", "-o", bin, file)
				build.Dir = root
				build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
				out, err := build.CombinedOutput()
				require.NoError(t, err, "%s does not build:\n%s", rel, out)
				run := exec.Command(bin)
				run.Dir = dir
				out, err = run.CombinedOutput()
				require.NoError(t, err, "%s fails:\n%s", rel, out)
				if want, ok := lastLines[rel]; ok {
					lines := strings.Split(strings.TrimSpace(string(out)), "\n")
					assert.Equal(t, want, lines[len(lines)-1])
				}
			})
		}
	}
	for page := range lastLines {
		assert.True(t, found[page], "%s shows no program any more", page)
	}
}
