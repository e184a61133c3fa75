package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writePackage writes the files as a package p of a module of its own and
// returns the package's directory.
func writePackage(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644))
	dir := filepath.Join(root, "p")
	require.NoError(t, os.Mkdir(dir, 0o755))
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

// at returns the mutant of kind at the first occurrence of needle in the
// file's text (the operator starts the needle).
func at(t *testing.T, file, text, needle, kind string) mutant {
	t.Helper()
	i := strings.Index(text, needle)
	require.GreaterOrEqual(t, i, 0, "%q not in the source", needle)
	line := strings.Count(text[:i], "\n") + 1
	col := i - strings.LastIndex(text[:i], "\n")
	return mutant{File: file, Line: line, Col: col, Kind: kind}
}

type needle struct{ text, kind string }

func TestSchemaRewritesEachKindOfMutant(t *testing.T) {
	cases := []struct {
		name    string
		source  string
		other   string // a second file of the package, if any
		mutants []needle
		place   placement
		why     string
		line    string // the mutants' line in the schema
	}{
		{
			name:    "a comparison's boundary",
			source:  "package p\n\nfunc f(a, b int) bool {\n\treturn a < b\n}\n",
			mutants: []needle{{"< b", "CONDITIONALS_BOUNDARY"}},
			line:    "\treturn func() bool { if mutantSchemaOn(1) { return (a) <= (b) }; return (a) < (b) }()",
		},
		{
			name:    "two mutants of one operator: one choice each",
			source:  "package p\n\nfunc f(a, b int) bool {\n\treturn a >= b\n}\n",
			mutants: []needle{{">= b", "CONDITIONALS_BOUNDARY"}, {">= b", "CONDITIONALS_NEGATION"}},
			line:    "\treturn func() bool { if mutantSchemaOn(1) { return (a) > (b) }; if mutantSchemaOn(2) { return (a) < (b) }; return (a) >= (b) }()",
		},
		{
			name:    "a mutant inside another's operand",
			source:  "package p\n\nfunc f(a, b, c int) bool {\n\treturn a*b == c\n}\n",
			mutants: []needle{{"*b", "ARITHMETIC_BASE"}, {"== c", "CONDITIONALS_NEGATION"}},
			line: "\treturn func() bool { if mutantSchemaOn(2) { return (func() int { if mutantSchemaOn(1) { return (a) / (b) }; return (a) * (b) }()) != (c) }; " +
				"return (func() int { if mutantSchemaOn(1) { return (a) / (b) }; return (a) * (b) }()) == (c) }()",
		},
		{
			name:    "a sign",
			source:  "package p\n\nfunc f(x float64) float64 {\n\treturn -x\n}\n",
			mutants: []needle{{"-x", "INVERT_NEGATIVES"}, {"-x", "ARITHMETIC_BASE"}},
			line:    "\treturn func() float64 { if mutantSchemaOn(1) { return +(x) }; if mutantSchemaOn(2) { return +(x) }; return -(x) }()",
		},
		{
			name:    "an increment",
			source:  "package p\n\nfunc f(n int) int {\n\tn++\n\treturn n\n}\n",
			mutants: []needle{{"++", "INCREMENT_DECREMENT"}},
			line:    "\tfunc() { if mutantSchemaOn(1) { n--; return }; n++ }()",
		},
		{
			name:    "a type of the package's own",
			source:  "package p\n\ntype Meters int\n\nfunc f(a, b Meters) Meters {\n\treturn a % b\n}\n",
			mutants: []needle{{"% b", "ARITHMETIC_BASE"}},
			line:    "\treturn func() Meters { if mutantSchemaOn(1) { return (a) * (b) }; return (a) % (b) }()",
		},
		{
			name:    "a type of an imported package, under the file's name for it",
			source:  "package p\n\nimport clock \"time\"\n\nfunc f(d clock.Duration) clock.Duration {\n\treturn d - 1\n}\n",
			mutants: []needle{{"- 1", "ARITHMETIC_BASE"}},
			line:    "\treturn func() clock.Duration { if mutantSchemaOn(1) { return (d) + (1) }; return (d) - (1) }()",
		},
		{
			name:    "a constant expression is built alone",
			source:  "package p\n\nconst k = 2 + 3\n",
			mutants: []needle{{"+ 3", "ARITHMETIC_BASE"}},
			place:   builtAlone,
			why:     "a constant expression",
		},
		{
			name:    "a type the file cannot name is built alone",
			source:  "package p\n\nfunc g() bool {\n\treturn d()*2 > 0\n}\n",
			other:   "package p\n\nimport \"time\"\n\nfunc d() time.Duration { return time.Second }\n",
			mutants: []needle{{"*2", "ARITHMETIC_BASE"}},
			place:   builtAlone,
			why:     "its type time.Duration has no name in the file",
		},
		{
			name:    "- between strings does not build",
			source:  "package p\n\nfunc f(a, b string) string {\n\treturn a + b\n}\n",
			mutants: []needle{{"+ b", "ARITHMETIC_BASE"}},
			place:   notViable,
			why:     "- between strings",
		},
		{
			name:    "a kind that does not change the operator there",
			source:  "package p\n\nfunc f(a, b int) bool {\n\treturn a == b\n}\n",
			mutants: []needle{{"== b", "CONDITIONALS_BOUNDARY"}},
			place:   notFound,
			why:     `CONDITIONALS_BOUNDARY does not change "=="`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"a.go": c.source}
			if c.other != "" {
				files["b.go"] = c.other
			}
			p, err := loadPackage(writePackage(t, files))
			require.NoError(t, err)
			var sites []site
			for i, n := range c.mutants {
				m := at(t, "a.go", c.source, n.text, n.kind)
				m.ID = i + 1
				s := p.locate(m)
				assert.Equal(t, c.place, s.place, "placement of %s", m)
				assert.Equal(t, c.why, s.why, "reason of %s", m)
				sites = append(sites, s)
			}
			if c.place != inSchema {
				return
			}
			lines := strings.Split(p.schemaFile("a.go", sites), "\n")
			assert.Len(t, lines, strings.Count(c.source, "\n")+1, "the schema keeps every line where it was")
			assert.Equal(t, c.line, lines[sites[0].Line-1])
		})
	}
}

func TestAMutantBuiltAloneChangesOnlyItsOperator(t *testing.T) {
	source := "package p\n\nconst k = 2 <= 3\n"
	p, err := loadPackage(writePackage(t, map[string]string{"a.go": source}))
	require.NoError(t, err)
	s := p.locate(at(t, "a.go", source, "<= 3", "CONDITIONALS_NEGATION"))
	require.Equal(t, builtAlone, s.place)
	assert.Equal(t, "package p\n\nconst k = 2 > 3\n", p.aloneFile(s))
}

// fixture copies testdata/module into a temporary directory, makes it the
// working directory and returns the mutants of its package fixture,
// listed by gremlins' dry run, and the path of that list.
func fixture(t *testing.T) ([]mutant, string) {
	t.Helper()
	dryRun, err := os.ReadFile(filepath.Join("testdata", "fixture.dryrun"))
	require.NoError(t, err)
	root := t.TempDir()
	require.NoError(t, os.CopyFS(root, os.DirFS(filepath.Join("testdata", "module"))))
	list := filepath.Join(root, "fixture.dryrun")
	require.NoError(t, os.WriteFile(list, dryRun, 0o644))
	t.Chdir(root)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	mutants := parseDryRun(dryRun)
	require.Len(t, mutants, 17)
	return mutants, list
}

// shown runs the fixture's TestShow in bin and returns the lines it
// prints, one per function, with the mutant turned on.
func shown(t *testing.T, r runner, bin string, mutant int) []string {
	t.Helper()
	o := r.run(bin, "^TestShow$", mutant)
	require.True(t, o.passed, "%s", o.output)
	var lines []string
	for _, line := range strings.Split(string(o.output), "\n") {
		if strings.Contains(line, " = ") {
			lines = append(lines, line)
		}
	}
	require.Len(t, lines, 9, "%s", o.output)
	return lines
}

// changed returns the lines of mutated that differ from original.
func changed(original, mutated []string) []string {
	var diff []string
	for i := range mutated {
		if mutated[i] != original[i] {
			diff = append(diff, mutated[i])
		}
	}
	return diff
}

func TestTheSchemaBuildsAndTurnsOnOneMutantAtATime(t *testing.T) {
	mutants, _ := fixture(t)
	t.Setenv("FIXTURE_SHOW", "1")
	p, err := loadPackage("fixture")
	require.NoError(t, err)
	r := runner{dir: "fixture", absDir: p.dir, timeout: 60e9}
	work := t.TempDir()
	// What the package's functions return.
	want := []string{"Less(1, 1) = false", "Less(1, 2) = true", "Same(a, a) = true", "Sum(2, 3) = 5",
		"Neg(1.5) = -1.5", "Count(3) = 3", "Join(a, b) = ab", "Limit() = 5", "Later(1s) = 2s"}

	sites := make([]site, len(mutants))
	for i, m := range mutants {
		sites[i] = p.locate(m)
	}
	overlay, err := p.writeSchema(filepath.Join(work, "schema"), sites)
	require.NoError(t, err)
	schema := filepath.Join(work, "schema.test")
	require.NoError(t, r.build(schema, overlay))
	assert.Equal(t, want, shown(t, r, schema, 0), "with no mutant the schema does what the package does")

	// What each mutant changes; x++ made x-- in the loop's header never ends.
	effects := map[string][]string{
		"fixture.go:7:37 CONDITIONALS_BOUNDARY":  {"Less(1, 1) = true"},
		"fixture.go:7:37 CONDITIONALS_NEGATION":  {"Less(1, 1) = true", "Less(1, 2) = false"},
		"fixture.go:9:40 CONDITIONALS_NEGATION":  {"Same(a, a) = false"},
		"fixture.go:11:35 ARITHMETIC_BASE":       {"Sum(2, 3) = -1"},
		"fixture.go:13:38 ARITHMETIC_BASE":       {"Neg(1.5) = 1.5"},
		"fixture.go:13:38 INVERT_NEGATIVES":      {"Neg(1.5) = 1.5"},
		"fixture.go:17:16 CONDITIONALS_BOUNDARY": {"Count(3) = 4"},
		"fixture.go:17:16 CONDITIONALS_NEGATION": {"Count(3) = 0"},
		"fixture.go:18:4 INCREMENT_DECREMENT":    {"Count(3) = -3"},
		"fixture.go:30:54 ARITHMETIC_BASE":       {"Later(1s) = 500ms"},
	}
	places := map[string]placement{}
	for _, s := range sites {
		places[s.mutant.String()] = s.place
		if e, ok := effects[s.mutant.String()]; ok {
			require.Equal(t, inSchema, s.place, "%s", s.mutant)
			assert.Equal(t, e, changed(want, shown(t, r, schema, s.ID)), "%s", s.mutant)
		}
	}
	assert.Equal(t, inSchema, places["fixture.go:17:22 INCREMENT_DECREMENT"])
	assert.Equal(t, notViable, places["fixture.go:23:42 ARITHMETIC_BASE"])

	// The constant 2 + 3 made 2 - 3, in a build of its own.
	require.Equal(t, builtAlone, places["fixture.go:26:18 ARITHMETIC_BASE"])
	s := p.locate(mutants[11])
	require.Equal(t, "fixture.go:26:18 ARITHMETIC_BASE", s.mutant.String())
	overlay, err = p.writeOverlay(filepath.Join(work, "alone"), map[string]string{s.File: p.aloneFile(s)})
	require.NoError(t, err)
	alone := filepath.Join(work, "alone.test")
	require.NoError(t, r.build(alone, overlay))
	assert.Equal(t, []string{"Limit() = -1"}, changed(want, shown(t, r, alone, 0)))
}

func TestARunReportsEveryMutant(t *testing.T) {
	_, list := fixture(t)
	out := t.TempDir()
	// x++ made x-- in a loop's header runs until the 2 s timeout.
	cfg := config{dir: "fixture", list: list, workers: 2, fast: 0.6, timeout: 2e9, out: out}
	require.NoError(t, mutationRun(cfg))

	data, err := os.ReadFile(filepath.Join(out, "fixture.schema.json"))
	require.NoError(t, err)
	var got report
	require.NoError(t, json.Unmarshal(data, &got))
	var lines []string
	for _, r := range got.Results {
		assert.Positive(t, r.Seconds, "%s", r)
		r.Seconds = 0
		lines = append(lines, r.String())
	}
	assert.Equal(t, []string{
		"fixture.go:7:37 CONDITIONALS_BOUNDARY | LIVED | - | 0.00 s",
		"fixture.go:7:37 CONDITIONALS_NEGATION | KILLED | TestLess | 0.00 s",
		"fixture.go:9:40 CONDITIONALS_NEGATION | NOT COVERED | - | 0.00 s",
		"fixture.go:11:35 ARITHMETIC_BASE | KILLED | TestSum | 0.00 s",
		"fixture.go:13:38 ARITHMETIC_BASE | NOT COVERED | - | 0.00 s",
		"fixture.go:13:38 INVERT_NEGATIVES | NOT COVERED | - | 0.00 s",
		"fixture.go:17:16 CONDITIONALS_BOUNDARY | KILLED | TestCount | 0.00 s",
		"fixture.go:17:16 CONDITIONALS_NEGATION | KILLED | TestCount | 0.00 s",
		"fixture.go:17:22 INCREMENT_DECREMENT | TIMED OUT | - | 0.00 s",
		"fixture.go:18:4 INCREMENT_DECREMENT | KILLED | TestCount | 0.00 s",
		"fixture.go:23:42 ARITHMETIC_BASE | NOT VIABLE | - | 0.00 s",
		"fixture.go:26:18 ARITHMETIC_BASE | KILLED | TestLimit | 0.00 s | built alone: a constant expression",
		"fixture.go:30:54 ARITHMETIC_BASE | KILLED | TestLater | 0.00 s",
		// No coverage block holds a case condition: the tests that reach
		// its switch run it.
		"fixture.go:34:9 CONDITIONALS_BOUNDARY | KILLED | TestClass | 0.00 s",
		"fixture.go:34:9 CONDITIONALS_NEGATION | KILLED | TestClass | 0.00 s",
		"fixture.go:36:9 CONDITIONALS_BOUNDARY | KILLED | TestClass | 0.00 s",
		"fixture.go:36:9 CONDITIONALS_NEGATION | KILLED | TestClass | 0.00 s",
	}, lines)
	assert.Equal(t, summary{Mutants: 17, Killed: 11, Lived: 1, NotCovered: 3, TimedOut: 1, NotViable: 1,
		Efficacy: 100 * 11.0 / 12, KilledOfViable: 100 * 11.0 / 16}, got.Summary)

	text, err := os.ReadFile(filepath.Join(out, "fixture.schema.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(text), "Killed: 11, Lived: 1, Not covered: 3\nTimed out: 1, Not viable: 1, Skipped: 0\nTest efficacy: 91.67%\nKilled of viable: 68.75%\n")
}

func TestARunStopsWhenATestFailsOnThePackage(t *testing.T) {
	_, list := fixture(t)
	source, err := os.ReadFile(filepath.Join("fixture", "fixture.go"))
	require.NoError(t, err)
	broken := strings.Replace(string(source), "return a + b }", "return a + b + 1 }", 1)
	require.NoError(t, os.WriteFile(filepath.Join("fixture", "fixture.go"), []byte(broken), 0o644))
	err = mutationRun(config{dir: "fixture", list: list, workers: 1, fast: 0.6, timeout: 60e9, out: t.TempDir()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "TestSum fails on the unmutated package:")
	assert.Contains(t, err.Error(), "fixture_test.go:18: Sum")
}

// TestASkippedMutantSaysWhyItWasSkipped: a mutant whose operator is not
// where the list says is reported as skipped, with the reason, not as
// built alone.
func TestASkippedMutantSaysWhyItWasSkipped(t *testing.T) {
	r := result{File: "a.go", Line: 1, Col: 2, Kind: "CONDITIONALS_NEGATION", Status: skipped, Why: "no such file in the package"}
	assert.Equal(t, "a.go:1:2 CONDITIONALS_NEGATION | SKIPPED | - | 0.00 s | skipped: no such file in the package", r.String())
}

// TestACaseConditionIsReachedThroughItsSwitch: no coverage block holds a
// case condition, so its mutants take the tests of the switch around it;
// a mutant in a clause's body keeps its own position.
func TestACaseConditionIsReachedThroughItsSwitch(t *testing.T) {
	source := "package p\n\nfunc f(a, b int) int {\n\tswitch {\n\tcase a < b:\n\t\tswitch a {\n\t\tcase b + 1:\n\t\t\treturn a - b\n\t\t}\n\t}\n\treturn 0\n}\n"
	p, err := loadPackage(writePackage(t, map[string]string{"a.go": source}))
	require.NoError(t, err)
	reach := func(needle, kind string) string {
		s := p.locate(at(t, "a.go", source, needle, kind))
		require.Equal(t, inSchema, s.place, "%s", needle)
		return fmt.Sprintf("%d:%d", s.reach.Line, s.reach.Col)
	}
	assert.Equal(t, "4:2", reach("< b", "CONDITIONALS_BOUNDARY"), "the outer switch")
	assert.Equal(t, "6:3", reach("+ 1", "ARITHMETIC_BASE"), "the inner switch")
	assert.Equal(t, "8:13", reach("- b", "ARITHMETIC_BASE"), "a clause's body: its own position")
}

// TestAKeptSchemaRunsOneMutantByHand: -keep with -build-only builds the
// schema, keeps it with its numbered list and runs no test.
func TestAKeptSchemaRunsOneMutantByHand(t *testing.T) {
	_, list := fixture(t)
	keep := filepath.Join(t.TempDir(), "kept")
	out := t.TempDir()
	require.NoError(t, mutationRun(config{dir: "fixture", list: list, workers: 1, fast: 0.6, timeout: 60e9, out: out, keep: keep, build: true}))

	text, err := os.ReadFile(filepath.Join(keep, "mutants.txt"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	require.Len(t, lines, 17)
	assert.Equal(t, "1 fixture.go:7:37 CONDITIONALS_BOUNDARY", lines[0])
	assert.Equal(t, "11 fixture.go:23:42 ARITHMETIC_BASE | not viable: - between strings", lines[10])
	assert.Equal(t, "12 fixture.go:26:18 ARITHMETIC_BASE | not in the schema, built alone: a constant expression", lines[11])
	assert.Equal(t, "14 fixture.go:34:9 CONDITIONALS_BOUNDARY", lines[13])
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "no report: no mutant was run")

	p, err := loadPackage("fixture")
	require.NoError(t, err)
	r := runner{dir: "fixture", absDir: p.dir, timeout: 60e9}
	bin := filepath.Join(keep, "schema.test")
	assert.True(t, r.run(bin, "^TestClass$", 0).passed)
	o := r.run(bin, "^TestClass$", 14)
	assert.False(t, o.passed)
	assert.Equal(t, "TestClass", o.failing)
}

func TestBuildOnlyNeedsKeep(t *testing.T) {
	_, err := parseFlags([]string{"-pkg", "engine", "-build-only"})
	assert.EqualError(t, err, "-build-only needs -keep")
}
