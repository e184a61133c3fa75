package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// profile parses a coverage profile or fails the test.
func profile(t *testing.T, text string) []block {
	t.Helper()
	blocks, err := parseProfile(strings.NewReader(text))
	require.NoError(t, err)
	return blocks
}

func TestAProfileKeepsTheBlocksRun(t *testing.T) {
	blocks := profile(t, `mode: set
example.com/m/p/a.go:3.20,5.2 2 1
example.com/m/p/a.go:7.10,9.3 1 0
example.com/m/p/b.go:4.1,4.30 1 1
`)
	assert.Equal(t, []block{{"a.go", 3, 20, 5, 2}, {"b.go", 4, 1, 4, 30}}, blocks, "a block run 0 times is left out")

	_, err := parseProfile(strings.NewReader("mode: set\na.go 1 1\n"))
	assert.EqualError(t, err, `coverage profile: bad line "a.go 1 1"`)
}

func TestABlockContainsItsEnds(t *testing.T) {
	b := block{"a.go", 3, 20, 5, 2}
	for _, c := range []struct {
		file      string
		line, col int
		in        bool
	}{
		{"a.go", 3, 20, true},
		{"a.go", 3, 19, false},
		{"a.go", 4, 1, true},
		{"a.go", 5, 2, true},
		{"a.go", 5, 3, false},
		{"b.go", 4, 1, false},
	} {
		assert.Equal(t, c.in, b.contains(c.file, c.line, c.col), "%s:%d:%d", c.file, c.line, c.col)
	}
}

func TestAMutantRunsTheTestsReachingItsLineFastestFirst(t *testing.T) {
	tests := []testRun{
		{Name: "TestSlow", Seconds: 3, blocks: profile(t, "mode: set\nm/p/a.go:1.1,20.2 5 1\n")},
		{Name: "TestB", Seconds: 0.2, blocks: profile(t, "mode: set\nm/p/a.go:10.1,12.2 2 1\n")},
		{Name: "TestA", Seconds: 0.2, blocks: profile(t, "mode: set\nm/p/a.go:10.1,12.2 2 1\n")},
		{Name: "TestFast", Seconds: 0.01, blocks: profile(t, "mode: set\nm/p/a.go:11.1,11.9 1 1\nm/p/a.go:30.1,31.2 1 0\n")},
		{Name: "TestOther", Seconds: 0.01, blocks: profile(t, "mode: set\nm/p/b.go:11.1,11.9 1 1\n")},
	}
	names := func(ts []testRun) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return out
	}

	quick, slow := testsFor(tests, mutant{File: "a.go", Line: 11, Col: 5}, 0.6)
	assert.Equal(t, []string{"TestFast", "TestA", "TestB"}, names(quick), "by time, then by name")
	assert.Equal(t, []string{"TestSlow"}, names(slow))
	assert.Equal(t, "^(TestFast|TestA|TestB)$", runPattern(quick))

	quick, slow = testsFor(tests, mutant{File: "a.go", Line: 15, Col: 5}, 0.6)
	assert.Empty(t, quick)
	assert.Equal(t, []string{"TestSlow"}, names(slow))

	quick, slow = testsFor(tests, mutant{File: "a.go", Line: 30, Col: 5}, 0.6)
	assert.Empty(t, quick, "a block run 0 times reaches nothing: the mutant is not covered")
	assert.Empty(t, slow)
}

func TestTheTestsListedAreTestsExamplesAndFuzzTargets(t *testing.T) {
	assert.Equal(t, []string{"TestA", "ExampleB", "FuzzC"},
		topLevelTests("TestA\nBenchmarkX\nExampleB\nFuzzC\nok  \texample.com/m/p\t0.01s\n"))
}

func TestGoTestFlagsBecomeTestBinaryFlags(t *testing.T) {
	assert.Equal(t, []string{"-test.short", "-test.skip=^TestSlow$", "-test.v"},
		testFlags([]string{"-short", "--skip=^TestSlow$", "-test.v"}))
}

func TestTheDryRunListIsSortedAndNumbered(t *testing.T) {
	got := parseDryRun([]byte("Starting...\n NOT COVERED CONDITIONALS_NEGATION at b.go:3:4\n" +
		" RUNNABLE ARITHMETIC_BASE at a.go:10:2\n NOT COVERED CONDITIONALS_BOUNDARY at b.go:3:4\nRunnable: 1\n"))
	assert.Equal(t, []mutant{
		{ID: 1, File: "a.go", Line: 10, Col: 2, Kind: "ARITHMETIC_BASE"},
		{ID: 2, File: "b.go", Line: 3, Col: 4, Kind: "CONDITIONALS_BOUNDARY"},
		{ID: 3, File: "b.go", Line: 3, Col: 4, Kind: "CONDITIONALS_NEGATION"},
	}, got)
}

func TestGremlinsLeavesOutTheFilesNoPatternMatches(t *testing.T) {
	dir := writePackage(t, map[string]string{
		"sandbox.go": "package p\n", "sandbox_random.go": "package p\n",
		"sandbox_test.go": "package p\n", "vm.go": "package p\n",
	})
	args, err := excludedFiles(dir, []string{"sandbox_*.go"})
	require.NoError(t, err)
	assert.Equal(t, []string{"--exclude-files", "/", "--exclude-files", "^sandbox\\.go$", "--exclude-files", "^vm\\.go$"}, args)

	args, err = excludedFiles(dir, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"--exclude-files", "/"}, args, "sub-packages only")
}

func TestAnErrorShowsTheOutputFromTheFirstFailure(t *testing.T) {
	out := []byte("=== RUN TestA\n--- PASS: TestA\n--- FAIL: TestB (0.01s)\n    b_test.go:9: wrong\nFAIL\nexit status 1\n")
	assert.Equal(t, "--- FAIL: TestB (0.01s)\n    b_test.go:9: wrong", excerpt(out, 2))
	assert.Equal(t, "FAIL\nexit status 1", excerpt([]byte("a\nb\nFAIL\nexit status 1\n"), 2), "no failure line: the end")
	assert.Equal(t, "panic: test timed out after 2s", excerpt([]byte("ok\npanic: test timed out after 2s\n"), 5))
}
