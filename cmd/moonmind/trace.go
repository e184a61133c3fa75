package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
)

func init() {
	commands["trace"] = command{what: "print a trace written by run --trace",
		usage: "trace FILE.jsonl [--agent NAME] [--kind KIND] [--tick A:B]", run: traceCmd}
}

// traceCmd prints a trace written by `moonmind run --trace` as lines, the
// records of one agent, one kind or a span of ticks when asked. An agent no
// record names, a kind the engine does not record or a bad span is an error
// with a did-you-mean (exit 2).
func traceCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("trace", stderr)
	agent := fs.String("agent", "", "only this agent's records")
	kind := fs.String("kind", "", "only records of this kind (plan, start, finish, fail, interrupt, ..., or input: the host's inputs)")
	span := fs.String("tick", "", "only records of ticks A to B inclusive, A:B (A: or :B leave an end open)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "moonmind trace: expected one trace file")
		return 2
	}
	from, to, err := parseTickSpan(*span)
	if err != nil {
		fmt.Fprintln(stderr, "moonmind trace:", err)
		return 2
	}
	onlyInputs := strings.EqualFold(*kind, "input")
	if *kind != "" && !onlyInputs {
		if _, ok := record.ParseEventKind(strings.ToLower(*kind)); !ok {
			fmt.Fprintf(stderr, "moonmind trace: --kind %s: no record has that kind%s\n", *kind, kindSuggestion(*kind))
			return 2
		}
	}
	_, events, inputs, code := readTrace(pos[0], stderr)
	if code != 0 {
		return code
	}
	if *agent != "" {
		seen := map[string]bool{}
		var agents []string
		for _, e := range events {
			if !seen[e.Agent] {
				seen[e.Agent] = true
				agents = append(agents, e.Agent)
			}
		}
		if !seen[*agent] {
			sort.Strings(agents)
			fmt.Fprintf(stderr, "moonmind trace: --agent %s: no record of %s names that agent%s\n", *agent, pos[0], engine.DidYouMean(*agent, agents))
			return 2
		}
	}
	if onlyInputs {
		for _, in := range inputs {
			if (*agent == "" || in.Agent == *agent) && in.Tick >= from && in.Tick <= to {
				fmt.Fprintln(stdout, in.String())
			}
		}
		return 0
	}
	for _, e := range events {
		if (*agent != "" && e.Agent != *agent) || (*kind != "" && !strings.EqualFold(e.Kind.String(), *kind)) ||
			e.Tick < from || e.Tick > to {
			continue
		}
		fmt.Fprintln(stdout, e.String())
	}
	return 0
}

// readTrace reads every record of a JSON Lines trace, its run header (nil
// when it has none) and the inputs the host gave (lines of kind "input").
// On failure it prints the error, with file:line for a bad record, and
// returns exit status 2.
func readTrace(path string, stderr io.Writer) (*runHeader, []record.Event, []hostInput, int) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stderr, "moonmind trace:", err)
		return nil, nil, nil, 2
	}
	defer f.Close()
	var hdr *runHeader
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	var events []record.Event
	var inputs []hostInput
	line := 0
	for sc.Scan() {
		line++
		var rec struct {
			record.Event
			Kind string `json:"kind"`
		}
		if line == 1 && strings.HasPrefix(sc.Text(), `{"kind":"run",`) {
			hdr = &runHeader{}
			if err := json.Unmarshal(sc.Bytes(), hdr); err != nil {
				fmt.Fprintf(stderr, "%s:%d: %v\n", path, line, err)
				return nil, nil, nil, 2
			}
			continue
		}
		if strings.HasPrefix(sc.Text(), `{"kind":"input",`) {
			var in hostInput
			if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
				fmt.Fprintf(stderr, "%s:%d: %v\n", path, line, err)
				return nil, nil, nil, 2
			}
			inputs = append(inputs, in)
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			if len(events) == 0 {
				fmt.Fprintf(stderr, "%s:%d: not a JSON Lines trace (one record per line, as moonmind run --trace writes): %v\n", path, line, err)
			} else {
				fmt.Fprintf(stderr, "%s:%d: %v\n", path, line, err)
			}
			return nil, nil, nil, 2
		}
		e := rec.Event
		e.Kind, _ = record.ParseEventKind(rec.Kind)
		events = append(events, e)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(stderr, "moonmind trace:", err)
		return nil, nil, nil, 2
	}
	return hdr, events, inputs, 0
}

// parseTickSpan reads --tick A:B, A:, :B or A (one tick). The empty span
// keeps every tick.
func parseTickSpan(s string) (from, to int, err error) {
	from, to = 0, int(^uint(0)>>1)
	if s == "" {
		return from, to, nil
	}
	a, b, isSpan := strings.Cut(s, ":")
	if !isSpan {
		b = a
	}
	bad := fmt.Errorf("--tick %s: expected A:B, A:, :B or A, with whole tick numbers A <= B", s)
	if a = strings.TrimSpace(a); a != "" {
		if from, err = strconv.Atoi(a); err != nil {
			return 0, 0, bad
		}
	}
	if b = strings.TrimSpace(b); b != "" {
		if to, err = strconv.Atoi(b); err != nil {
			return 0, 0, bad
		}
	}
	if from > to || (a == "" && b == "") {
		return 0, 0, bad
	}
	return from, to, nil
}

// eventKindNames lists the name of every kind of record the engine makes.
func eventKindNames() []string {
	var names []string
	for i := 1; i < 256; i++ {
		k := record.EventKind(i)
		if _, ok := record.ParseEventKind(k.String()); ok && k.String() != "event" {
			names = append(names, k.String())
		}
	}
	sort.Strings(names)
	return slices.Compact(names)
}

// kindSuggestion is the did-you-mean of an unknown --kind: the closest
// kind name, else the kinds whose name begins with it and a dash (belief:
// belief-added, belief-removed), else nothing.
func kindSuggestion(kind string) string {
	names := append(eventKindNames(), "input")
	if s := engine.DidYouMean(kind, names); s != "" {
		return s
	}
	var starts []string
	for _, n := range names {
		if strings.HasPrefix(n, strings.ToLower(kind)+"-") {
			starts = append(starts, n)
		}
	}
	if len(starts) == 0 {
		return ""
	}
	return " (did you mean one of " + strings.Join(starts, ", ") + "?)"
}
