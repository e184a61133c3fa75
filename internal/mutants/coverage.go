package main

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
)

// A block is a stretch of source a test ran at least once, from a
// coverage profile: File is the file's base name.
type block struct {
	File        string
	Line1, Col1 int
	Line2, Col2 int
}

// contains reports whether the position is in the block.
func (b block) contains(file string, line, col int) bool {
	if b.File != file {
		return false
	}
	after := line > b.Line1 || line == b.Line1 && col >= b.Col1
	before := line < b.Line2 || line == b.Line2 && col <= b.Col2
	return after && before
}

// parseProfile reads a coverage profile (go test -coverprofile) and
// returns the blocks run at least once.
func parseProfile(r io.Reader) ([]block, error) {
	var blocks []block
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "mode:") {
			continue
		}
		// file:l1.c1,l2.c2 statements count
		fields := strings.Fields(line)
		if len(fields) != 3 || !strings.Contains(fields[0], ":") {
			return nil, fmt.Errorf("coverage profile: bad line %q", line)
		}
		colon := strings.LastIndex(fields[0], ":")
		if fields[2] == "0" {
			continue
		}
		var b block
		b.File = path.Base(fields[0][:colon])
		if _, err := fmt.Sscanf(fields[0][colon+1:], "%d.%d,%d.%d", &b.Line1, &b.Col1, &b.Line2, &b.Col2); err != nil {
			return nil, fmt.Errorf("coverage profile: bad line %q", line)
		}
		blocks = append(blocks, b)
	}
	return blocks, sc.Err()
}

// A testRun is one top-level test run alone on the unmutated package: how
// long it took and the blocks it ran.
type testRun struct {
	Name    string
	Seconds float64
	blocks  []block
}

func (t testRun) reaches(m mutant) bool {
	for _, b := range t.blocks {
		if b.contains(m.File, m.Line, m.Col) {
			return true
		}
	}
	return false
}

// testsFor returns the tests that reach the mutant's position, the fastest
// first (by name when equal), split into those taking at most fast seconds
// and the rest.
func testsFor(tests []testRun, m mutant, fast float64) (quick, slow []testRun) {
	var reaching []testRun
	for _, t := range tests {
		if t.reaches(m) {
			reaching = append(reaching, t)
		}
	}
	sort.SliceStable(reaching, func(i, j int) bool {
		if reaching[i].Seconds != reaching[j].Seconds {
			return reaching[i].Seconds < reaching[j].Seconds
		}
		return reaching[i].Name < reaching[j].Name
	})
	for _, t := range reaching {
		if t.Seconds <= fast {
			quick = append(quick, t)
		} else {
			slow = append(slow, t)
		}
	}
	return quick, slow
}

// runPattern is the -test.run pattern of exactly these tests.
func runPattern(tests []testRun) string {
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.Name
	}
	return "^(" + strings.Join(names, "|") + ")$"
}

// topLevelTests keeps the names -test.list printed that are tests,
// examples or fuzz targets (whose seeds run as tests), not benchmarks.
func topLevelTests(list string) []string {
	var names []string
	for _, name := range strings.Fields(list) {
		for _, prefix := range []string{"Test", "Example", "Fuzz"} {
			if strings.HasPrefix(name, prefix) {
				names = append(names, name)
				break
			}
		}
	}
	return names
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 2, 64) }
