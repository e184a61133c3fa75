package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["check"] = command{what: "load role files and report every problem, or a one-line summary", usage: "check FILE...", run: checkCmd}
	commands["trace"] = command{what: "print a trace written by run --trace", usage: "trace FILE.jsonl [--agent NAME] [--kind KIND]", run: traceCmd}
}

// checkCmd loads each role file and reports every problem, or a one-line
// summary of the role.
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "moonmind check: expected one or more role files")
		return 2
	}
	code := 0
	for _, p := range pos {
		rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(p)})
		d, err := rt.LoadDomain(p)
		rt.Close()
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 2
			continue
		}
		fmt.Fprintf(stdout, "%s: ok: role %s, %d state variables, %d goals, %d actions, %d sensors, decide %s\n",
			p, d.Name, d.Schema.Len(), len(d.Goals), len(d.Actions), len(d.Sensors), d.Decide)
		// The one rule of candidacy (engine.Goal.Candidate): a goal no action
		// is a candidate for is reached only when the world makes it true.
		for _, g := range d.Goals {
			if len(d.Candidates(g)) == 0 {
				fmt.Fprintf(stdout, "%s: note: goal %q has no candidate action (none lists it in fulfills or assigns a variable its condition reads): only the world can make it true\n",
					g.Pos, g.Name)
			}
		}
	}
	return code
}

// traceCmd prints a trace written by `moonmind run --trace` as lines.
func traceCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("trace", stderr)
	agent := fs.String("agent", "", "only this agent's records")
	kind := fs.String("kind", "", "only records of this kind (plan, start, finish, fail, interrupt, ...)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "moonmind trace: expected one trace file")
		return 2
	}
	f, err := os.Open(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "moonmind trace:", err)
		return 2
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		var rec struct {
			engine.Event
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			fmt.Fprintf(stderr, "%s:%d: %v\n", pos[0], line, err)
			return 2
		}
		e := rec.Event
		e.Kind = kindByName(rec.Kind)
		if (*agent != "" && e.Agent != *agent) || (*kind != "" && !strings.EqualFold(rec.Kind, *kind)) {
			continue
		}
		fmt.Fprintln(stdout, e.String())
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(stderr, "moonmind trace:", err)
		return 2
	}
	return 0
}

func kindByName(name string) engine.EventKind {
	k, _ := engine.ParseEventKind(name)
	return k
}
