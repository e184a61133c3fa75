package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// A runner builds and runs the package's tests.
type runner struct {
	dir      string        // the package's directory, relative to the module root
	absDir   string        // the same, absolute: tests run there
	flags    []string      // test binary flags for every run (-test.short ...)
	timeout  time.Duration // the most one run of a test binary may take
	buildEnv []string      // extra environment of go test -c
}

// build compiles the package's tests into bin, with the overlay if not
// empty and more go test flags; it returns go's output if that fails.
func (r runner) build(bin, overlay string, extra ...string) error {
	args := []string{"test", "-c", "-vet=off", "-o", bin}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, extra...)
	args = append(args, "./"+r.dir)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), r.buildEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// An outcome is what one run of a test binary did.
type outcome struct {
	passed   bool
	timedOut bool
	failing  string // the first test that failed, if known
	output   []byte
	seconds  float64
}

// failLine matches the line go test prints for a failing test.
var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// run runs the tests matching pattern in bin, in the package's directory,
// one CPU, stopping at the first failure, with MUTANT=mutant unless 0.
func (r runner) run(bin, pattern string, mutant int, more ...string) outcome {
	args := []string{"-test.run", pattern, "-test.count=1", "-test.cpu=1", "-test.failfast",
		"-test.timeout=" + r.timeout.String()}
	args = append(append(args, r.flags...), more...)
	// The test binary stops itself at -test.timeout; the context is
	// there if it cannot.
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.absDir
	cmd.Env = os.Environ()
	if mutant != 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("MUTANT=%d", mutant))
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	o := outcome{passed: err == nil, output: out.Bytes(), seconds: time.Since(start).Seconds()}
	if err != nil {
		o.timedOut = ctx.Err() != nil || bytes.Contains(o.output, []byte("panic: test timed out after"))
		if m := failLine.FindSubmatch(o.output); m != nil {
			o.failing = string(m[1])
		}
	}
	return o
}

// failure says how the run failed.
func (o outcome) failure() string {
	switch {
	case o.timedOut:
		return "timed out"
	case o.failing != "":
		return "fails " + o.failing
	}
	return "fails"
}

// excerpt returns at most lines lines of a test binary's output, for an
// error: from the first failure or panic if there is one, else its end.
func excerpt(out []byte, lines int) string {
	all := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i, line := range all {
		if strings.HasPrefix(strings.TrimSpace(line), "--- FAIL") || strings.HasPrefix(line, "panic: ") {
			return strings.Join(all[i:min(i+lines, len(all))], "\n")
		}
	}
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}
