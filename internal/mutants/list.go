package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A mutant is one change gremlins would make: the operator at File:Line:Col
// (the file relative to the package's directory) changed as Kind says.
type mutant struct {
	ID   int // 1, 2, ...: the value of MUTANT that turns it on
	File string
	Line int
	Col  int
	Kind string
}

func (m mutant) String() string {
	return fmt.Sprintf("%s:%d:%d %s", m.File, m.Line, m.Col, m.Kind)
}

// dryRunLine matches a mutant in gremlins' dry-run output, such as
// " NOT COVERED CONDITIONALS_NEGATION at sandbox.go:142:44".
var dryRunLine = regexp.MustCompile(`\b([A-Z]+(?:_[A-Z]+)+) at (\S+\.go):(\d+):(\d+)\s*$`)

// parseDryRun reads the mutants of gremlins' dry-run output, sorted by
// position and kind (gremlins lists them in no fixed order) and numbered
// from 1.
func parseDryRun(out []byte) []mutant {
	var list []mutant
	for _, line := range strings.Split(string(out), "\n") {
		m := dryRunLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l, _ := strconv.Atoi(m[3])
		c, _ := strconv.Atoi(m[4])
		list = append(list, mutant{File: m[2], Line: l, Col: c, Kind: m[1]})
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Kind < b.Kind
	})
	for i := range list {
		list[i].ID = i + 1
	}
	return list
}

// excludedFiles returns the --exclude-files arguments gremlins needs to
// mutate only the package's files (not those of its sub-packages) matching
// one of the shell patterns; no pattern keeps every file.
func excludedFiles(dir string, patterns []string) ([]string, error) {
	args := []string{"--exclude-files", "/"}
	if len(patterns) == 0 {
		return args, nil
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") {
			continue
		}
		kept, err := matchesAny(base, patterns)
		if err != nil {
			return nil, err
		}
		if !kept {
			args = append(args, "--exclude-files", "^"+regexp.QuoteMeta(base)+"$")
		}
	}
	return args, nil
}

func matchesAny(name string, patterns []string) (bool, error) {
	for _, p := range patterns {
		ok, err := filepath.Match(p, name)
		if err != nil {
			return false, fmt.Errorf("file pattern %q: %w", p, err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// listMutants runs gremlins' dry run over the package in dir (relative to
// the module root, the working directory). Its coverage run is made
// cheap with -run=^$: the dry run only needs the mutants' positions.
func listMutants(gremlins, dir string, patterns []string) ([]mutant, error) {
	excludes, err := excludedFiles(dir, patterns)
	if err != nil {
		return nil, err
	}
	args := append([]string{"unleash", "--dry-run"}, excludes...)
	args = append(args, "./"+dir)
	cmd := exec.Command(gremlins, args...)
	cmd.Env = append(os.Environ(), "GOFLAGS=-run=^$")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("gremlins dry run: %w\n%s", err, out.Bytes())
	}
	return parseDryRun(out.Bytes()), nil
}
