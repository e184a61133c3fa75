package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// A config is what the command line asks for.
type config struct {
	dir      string   // the package, relative to the module root
	gremlins string   // the gremlins binary
	list     string   // a saved dry-run output to read instead of running gremlins
	files    []string // shell patterns of the files to mutate; none: all
	flags    []string // test binary flags for every run
	skip     *regexp.Regexp
	workers  int
	fast     float64 // seconds: tests at most this long run first
	timeout  time.Duration
	out      string
	keep     string // where the schema's test binary and its list go, if set
	build    bool   // only build the schema (into keep), run nothing
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err == nil {
		err = mutationRun(cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	var cfg config
	var files, goflags, skip string
	fs := flag.NewFlagSet("mutants", flag.ContinueOnError)
	fs.StringVar(&cfg.dir, "pkg", "", "the package's directory, relative to the module root (the working directory)")
	fs.StringVar(&cfg.gremlins, "gremlins", "gremlins", "the gremlins binary (v0.6.0) that lists the mutants")
	fs.StringVar(&cfg.list, "list", "", "read the mutants from this saved output of gremlins' dry run instead (-gremlins and -files are then not used)")
	fs.StringVar(&files, "files", "", "mutate only the package's files matching one of these blank-separated shell patterns")
	fs.StringVar(&goflags, "goflags", "", "go test flags for every test run, e.g. \"-short\" or \"-skip=^TestSlow$\"")
	fs.StringVar(&skip, "skip", "", "leave out the top-level tests matching this regular expression")
	fs.IntVar(&cfg.workers, "workers", 1, "mutants tested at once")
	fs.Float64Var(&cfg.fast, "fast", 0.6, "seconds: a mutant's tests taking at most this long alone run first")
	fs.DurationVar(&cfg.timeout, "timeout", 150*time.Second, "the most one run of a mutant's tests may take")
	fs.StringVar(&cfg.out, "out", "/tmp/moonmind-mutation", "where the report goes")
	fs.StringVar(&cfg.keep, "keep", "", "keep the schema's test binary (schema.test) and its numbered list of mutants (mutants.txt) in this directory, to run one mutant by hand: MUTANT=7 schema.test -test.run ...")
	fs.BoolVar(&cfg.build, "build-only", false, "with -keep: build the schema and stop, running no test")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.dir = strings.TrimSuffix(strings.TrimPrefix(cfg.dir, "./"), "/")
	if cfg.dir == "" {
		return cfg, errors.New("no package: give -pkg")
	}
	if cfg.build && cfg.keep == "" {
		return cfg, errors.New("-build-only needs -keep")
	}
	if cfg.workers < 1 {
		return cfg, errors.New("-workers must be at least 1")
	}
	cfg.files = strings.Fields(files)
	cfg.flags = testFlags(strings.Fields(goflags))
	if skip != "" {
		re, err := regexp.Compile(skip)
		if err != nil {
			return cfg, fmt.Errorf("-skip: %w", err)
		}
		cfg.skip = re
	}
	return cfg, nil
}

// testFlags turns go test flags (-short, -skip=X) into the test binary's
// own (-test.short, -test.skip=X).
func testFlags(goflags []string) []string {
	out := make([]string, len(goflags))
	for i, f := range goflags {
		if strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "-test.") {
			f = "-test." + strings.TrimLeft(f, "-")
		}
		out[i] = f
	}
	return out
}

// mutationRun does the whole run for one package.
func mutationRun(cfg config) error {
	mutants, err := readMutants(cfg)
	if err != nil {
		return err
	}
	p, err := loadPackage(cfg.dir)
	if err != nil {
		return err
	}
	// The builds, coverage profiles and schema files: removed at the end.
	work, err := os.MkdirTemp("", "mutants-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	r := runner{dir: cfg.dir, absDir: p.dir, flags: cfg.flags, timeout: cfg.timeout}
	var tests []testRun
	if !cfg.build {
		logf("%d mutants in ./%s; running each test alone for its coverage", len(mutants), cfg.dir)
		if tests, err = measureTests(r, cfg, work); err != nil {
			return err
		}
	}
	sites := make([]site, len(mutants))
	for i, m := range mutants {
		sites[i] = p.locate(m)
	}
	bin, err := buildSchema(r, p, sites, work, tests)
	if err != nil {
		return err
	}
	if cfg.keep != "" {
		if err := keepSchema(cfg.keep, bin, sites); err != nil {
			return err
		}
		logf("kept the schema: %s", filepath.Join(cfg.keep, "schema.test"))
		if cfg.build {
			return nil
		}
	}
	results := testMutants(r, p, cfg, sites, tests, bin, work)
	return writeReports(cfg, results)
}

// keepSchema copies the schema's test binary into dir and writes the
// list of its mutants, one a line: the number that turns it on, its
// position and kind, and how it is run when not in the schema.
func keepSchema(dir, bin string, sites []site) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	// Written aside and renamed, so a kept binary still running (a test
	// by hand) is replaced rather than refused as busy.
	kept := filepath.Join(dir, "schema.test")
	if err := os.WriteFile(kept+".new", data, 0o755); err != nil {
		return err
	}
	if err := os.Rename(kept+".new", kept); err != nil {
		return err
	}
	var b strings.Builder
	for _, s := range sites {
		fmt.Fprintf(&b, "%d %s", s.ID, s.mutant)
		switch s.place {
		case builtAlone:
			fmt.Fprintf(&b, " | not in the schema, built alone: %s", s.why)
		case notViable:
			fmt.Fprintf(&b, " | not viable: %s", s.why)
		case notFound:
			fmt.Fprintf(&b, " | skipped: %s", s.why)
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(dir, "mutants.txt"), []byte(b.String()), 0o644)
}

func readMutants(cfg config) ([]mutant, error) {
	if cfg.list == "" {
		return listMutants(cfg.gremlins, cfg.dir, cfg.files)
	}
	data, err := os.ReadFile(cfg.list)
	if err != nil {
		return nil, err
	}
	return parseDryRun(data), nil
}

// measureTests builds the package's tests with coverage and runs each
// top-level test alone, for the lines it reaches and its time. A test that
// fails on the unmutated package stops the run.
func measureTests(r runner, cfg config, work string) ([]testRun, error) {
	bin := filepath.Join(work, "cover.test")
	if err := r.build(bin, "", "-cover", "-covermode=set"); err != nil {
		return nil, err
	}
	listed := r.run(bin, "^$", 0, "-test.list", ".")
	if !listed.passed {
		return nil, fmt.Errorf("listing the tests: %s", excerpt(listed.output, 30))
	}
	var names []string
	for _, name := range topLevelTests(string(listed.output)) {
		if cfg.skip == nil || !cfg.skip.MatchString(name) {
			names = append(names, name)
		}
	}
	tests := make([]testRun, len(names))
	errs := make([]error, len(names))
	forEach(cfg.workers, len(names), func(i int) {
		tests[i], errs[i] = measureTest(r, bin, names[i], filepath.Join(work, "cover"))
	})
	return tests, errors.Join(errs...)
}

func measureTest(r runner, bin, name, dir string) (testRun, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return testRun{}, err
	}
	profile := filepath.Join(dir, name+".out")
	o := r.run(bin, "^"+name+"$", 0, "-test.coverprofile="+profile)
	if !o.passed {
		return testRun{}, fmt.Errorf("%s fails on the unmutated package:\n%s", name, excerpt(o.output, 30))
	}
	f, err := os.Open(profile)
	if err != nil {
		return testRun{}, err
	}
	defer f.Close()
	blocks, err := parseProfile(f)
	return testRun{Name: name, Seconds: o.seconds, blocks: blocks}, err
}

// buildSchema writes the schema, builds it and runs every test on it with
// no mutant turned on: they must pass, as on the package itself.
func buildSchema(r runner, p *pkg, sites []site, work string, tests []testRun) (string, error) {
	overlay, err := p.writeSchema(filepath.Join(work, "schema"), sites)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(work, "schema.test")
	logf("building the schema")
	if err := r.build(bin, overlay); err != nil {
		return "", err
	}
	if len(tests) == 0 {
		return bin, nil
	}
	// Every test in one run: the time limit is for all of them.
	total := 0.0
	for _, t := range tests {
		total += t.Seconds
	}
	all := r
	all.timeout += time.Duration(5 * total * float64(time.Second))
	logf("running the tests on the schema with no mutant (at most %s)", all.timeout.Round(time.Second))
	o := all.run(bin, runPattern(tests), 0)
	if !o.passed {
		return "", fmt.Errorf("the schema with no mutant %s, unlike the package:\n%s", o.failure(), excerpt(o.output, 30))
	}
	return bin, nil
}

// testMutants runs every mutant on workers, and returns their results in
// the list's order.
func testMutants(r runner, p *pkg, cfg config, sites []site, tests []testRun, bin, work string) []result {
	results := make([]result, len(sites))
	var mu sync.Mutex
	done := 0
	forEachWorker(cfg.workers, len(sites), func(worker, i int) {
		start := time.Now()
		res := testMutant(r, p, cfg, sites[i], tests, bin, filepath.Join(work, fmt.Sprintf("alone%d", worker)))
		res.Seconds = time.Since(start).Seconds()
		results[i] = res
		mu.Lock()
		done++
		logf("[%d/%d] %s", done, len(sites), res)
		mu.Unlock()
	})
	return results
}

// testMutant runs one mutant's tests, those that reach its line, the fast
// ones first.
func testMutant(r runner, p *pkg, cfg config, s site, tests []testRun, bin, aloneDir string) result {
	res := result{File: s.File, Line: s.Line, Col: s.Col, Kind: s.Kind}
	switch s.place {
	case notFound:
		res.Status, res.Why = skipped, s.why
		return res
	case notViable:
		res.Status = notViableS
		return res
	}
	quick, slow := testsFor(tests, s.reach, cfg.fast)
	if len(quick)+len(slow) == 0 {
		res.Status = notCovered
		return res
	}
	id := s.ID
	if s.place == builtAlone {
		res.Why = s.why
		id = 0
		overlay, err := p.writeOverlay(aloneDir, map[string]string{s.File: p.aloneFile(s)})
		bin = filepath.Join(aloneDir, "alone.test")
		if err == nil {
			err = r.build(bin, overlay)
		}
		if err != nil {
			res.Status = notViableS
			return res
		}
	}
	for _, group := range [][]testRun{quick, slow} {
		if len(group) == 0 {
			continue
		}
		o := r.run(bin, runPattern(group), id)
		switch {
		case o.timedOut:
			res.Status = timedOut
			return res
		case !o.passed:
			res.Status, res.Killer = killed, o.failing
			return res
		}
	}
	res.Status = lived
	return res
}

func writeReports(cfg config, results []result) error {
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	name := filepath.Join(cfg.out, strings.ReplaceAll(cfg.dir, "/", "_")+".schema")
	f, err := os.Create(name + ".txt")
	if err != nil {
		return err
	}
	defer f.Close()
	if err := writeText(f, results); err != nil {
		return err
	}
	if _, err := writeJSON(name+".json", report{Package: cfg.dir, Results: results, Summary: summarize(results)}); err != nil {
		return err
	}
	for _, r := range results {
		if r.Status == lived || r.Status == timedOut {
			fmt.Println(r)
		}
	}
	fmt.Print(summarize(results))
	fmt.Printf("report: %s.txt, %s.json\n", name, name)
	return nil
}

// forEach calls do(i) for i in [0, n) on workers goroutines.
func forEach(workers, n int, do func(i int)) {
	forEachWorker(workers, n, func(_, i int) { do(i) })
}

// forEachWorker calls do(worker, i) for i in [0, n), worker being the
// number of the goroutine, in [0, workers).
func forEachWorker(workers, n int, do func(worker, i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(w, i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mutants: "+format+"\n", args...)
}
