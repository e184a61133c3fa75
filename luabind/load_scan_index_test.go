package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/ast"
)

// entryByWalk is Scan.Entry as it was: pickEntry over every expression of
// the file, in source order.
func entryByWalk(s *Scan, line int, name string) (Touches, bool) {
	found := pickEntry(line, name, func(visit func(ast.Expr)) { walker{expr: visit}.stmts(s.chunk) })
	if found == nil {
		return Touches{}, false
	}
	t := Touches{First: found.Line(), Last: found.Line()}
	walker{expr: func(e ast.Expr) {
		t.note(e)
		t.Last = max(t.Last, e.Line())
		if f, ok := e.(*ast.FunctionExpr); ok {
			t.Last = max(t.Last, f.LastLine())
		}
	}}.exprNode(found)
	return t, true
}

// TestScanEntryFindsWhatAWalkOfTheWholeFileFinds: on every role file of
// the repository's scripts and test data, for every line and every name
// written on it (and no name), Entry through its index of lines answers
// as a walk of the whole file does.
func TestScanEntryFindsWhatAWalkOfTheWholeFileFinds(t *testing.T) {
	var files []string
	for _, root := range []string{"testdata", "../scripts", "../cmd/moonmind/testdata", "../examples"} {
		require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lua") {
				files = append(files, p)
			}
			return err
		}))
	}
	require.Greater(t, len(files), 50)
	quoted := regexp.MustCompile(`["'](\w+)["']`)
	entries, found := 0, 0
	for _, f := range files {
		s, err := ScanFile(f)
		if err != nil {
			continue // files that do not parse on purpose
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, text := range strings.Split(string(src), "\n") {
			names := []string{""}
			for _, m := range quoted.FindAllStringSubmatch(text, -1) {
				names = append(names, m[1])
			}
			for _, name := range names {
				want, wantOK := entryByWalk(s, i+1, name)
				got, gotOK := s.Entry(i+1, name)
				entries++
				if wantOK {
					found++
				}
				require.Equal(t, wantOK, gotOK, "%s:%d %q", f, i+1, name)
				require.Equal(t, want, got, "%s:%d %q", f, i+1, name)
			}
		}
	}
	assert.Greater(t, found, 1000, "of %d entries asked", entries)
}

// TestScanEntryLooksAtItsLineOnly: Entry for each action of a role of
// 5,000 actions looks at the expressions indexed under its line (its own
// table and the actions list), not at the whole file: 2 per action where
// a walk looked at every expression of the file for each.
func TestScanEntryLooksAtItsLineOnly(t *testing.T) {
	const n = 5000
	var b strings.Builder
	b.WriteString("return {\n  name = \"Big\",\n  state = { v = 0 },\n  actions = {\n")
	for i := range n {
		fmt.Fprintf(&b, "    { name = \"a%d\", effects = \"v = v + 1\", run = function(npc) npc.state.w%d = true end },\n", i, i)
	}
	b.WriteString("  },\n}\n")
	path := filepath.Join(t.TempDir(), "big.lua")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	s, err := ScanFile(path)
	require.NoError(t, err)

	looked := 0
	testHooks.entryLooked = func(k int) { looked += k }
	defer func() { testHooks.entryLooked = nil }()
	for i := range n {
		got, ok := s.Entry(5+i, fmt.Sprintf("a%d", i))
		require.True(t, ok, "action a%d", i)
		require.Equal(t, []string{fmt.Sprintf("w%d", i)}, got.Writes, "action a%d", i)
	}
	assert.Equal(t, 2*n, looked, "the actions list and the action's own table, for each action")
}

// TestRoleReaderPositionsAsCountedFromTheStart: offset and posOf, which
// look lines up in a table made once, give what counting the lines from
// the start of the file gives, at every offset of a file.
func TestRoleReaderPositionsAsCountedFromTheStart(t *testing.T) {
	src := "return {\n  name = \"A\",\n\n  state = { x = 1 },\n}\n"
	rd := &roleReader{file: "a.lua", src: src}
	for off := 0; off <= len(src); off++ {
		line := 1 + strings.Count(src[:off], "\n")
		col := off - strings.LastIndex(src[:off], "\n")
		p := rd.posOf(off)
		require.Equal(t, [2]int{line, col}, [2]int{p.Line, p.Col}, "offset %d", off)
		require.Equal(t, off, rd.offset(p), "offset %d", off)
	}
	assert.Equal(t, len(src), rd.offset(engine.Pos{Line: 9, Col: 1}), "a line past the end")
}
