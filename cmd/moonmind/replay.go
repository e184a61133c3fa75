package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["replay"] = command{what: "re-run a run recorded with run --trace against the current files and print the first decision that differs",
		usage: "replay TRACE.jsonl [FILE...]", run: replayCmd}
	helps["replay"] = helpText{
		args: "TRACE.jsonl  a trace written by moonmind run --trace (its first line holds the run's arguments)\n" +
			"FILE...      role files to run instead of the recorded ones, in the same order (default: the recorded\n" +
			"             paths, read as they are now, relative to the directory replay runs in)",
		example: "moonmind replay run.jsonl\n  identical: 9 records over 200 ticks",
		exits:   "1  a record differs: its tick, agent, and the recorded and new record are printed\n2  the trace cannot be read or holds no run header, or a file does not load",
		more: "run --trace records, after the decisions, every input the host gave: what each sensor wrote and what\n" +
			"each training-ground method answered (and changed in the agent's state). replay feeds those back instead of\n" +
			"asking again, so a sensor or method whose answer differs from run to run still replays; from the first host\n" +
			"call an edited body makes differently, that agent's calls are answered by the training ground. A sensor whose\n" +
			"Lua source changed since the run runs again (replay says so), so an edit of a sensor shows. Told beliefs\n" +
			"come from other agents' bodies in the same run, which replay runs again; run has no language model, so a\n" +
			"trace holds no LLM answers (luabind.LLMOptions.Replay feeds a game's recorded answers back).",
	}
}

// runHeader is the first line of a trace written by run --trace: the
// kind "run" and the run's arguments without --trace.
type runHeader struct {
	Kind string   `json:"kind"`
	Args []string `json:"args"`
	// Sensors holds a fingerprint of each Lua sensor's source, by
	// "Role/sensor": replay runs a sensor whose source changed again
	// instead of feeding its recorded values back.
	Sensors map[string]string `json:"sensors,omitempty"`
}

// withoutTrace returns args without --trace FILE (any spelling).
func withoutTrace(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--trace" || a == "-trace":
			i++
		case strings.HasPrefix(a, "--trace=") || strings.HasPrefix(a, "-trace="):
		default:
			out = append(out, a)
		}
	}
	return out
}

func writeRunHeader(w io.Writer, args []string, sensors map[string]string) error {
	b, err := json.Marshal(runHeader{Kind: "run", Args: withoutTrace(args), Sensors: sensors})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// runBoolFlags are run's flags that take no value (--timing).
var runBoolFlags = map[string]bool{"timing": true}

// replaceFiles returns run arguments with their positional arguments (the
// role files) replaced by files, in order, and how many there were. Every
// flag of run but those of runBoolFlags takes a value, so such a flag
// without "=" is followed by it.
func replaceFiles(args, files []string) ([]string, int) {
	out := append([]string(nil), args...)
	n := 0
	for i := 0; i < len(out); i++ {
		a := out[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && !runBoolFlags[strings.TrimLeft(a, "-")] {
				i++
			}
			continue
		}
		if n < len(files) {
			out[i] = files[n]
		}
		n++
	}
	return out, n
}

// replayCmd re-runs the run a trace recorded, with the recorded arguments
// (and the given files in place of the recorded ones), and compares the new
// records with the recorded ones, one by one.
func replayCmd(args []string, stdout, stderr io.Writer) int {
	return replayWith(args, stdout, stderr, nil)
}

// replayWith is replayCmd; ground, when set, changes the training
// ground's methods of the new run (see runHooks).
func replayWith(args []string, stdout, stderr io.Writer, ground func(map[string]luabind.HostFunc) map[string]luabind.HostFunc) int {
	fs := newFlagSet("replay", stderr)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "moonmind replay: expected a trace file")
		return 2
	}
	hdr, recorded, inputs, code := readTrace(pos[0], stderr)
	if code != 0 {
		return code
	}
	if hdr == nil {
		fmt.Fprintf(stderr, "moonmind replay: %s has no run header: it was written before replay existed, or not by moonmind run --trace\n", pos[0])
		return 2
	}
	runArgs := append([]string(nil), hdr.Args...)
	if files := pos[1:]; len(files) > 0 {
		var n int
		if runArgs, n = replaceFiles(runArgs, files); n != len(files) {
			fmt.Fprintf(stderr, "moonmind replay: the trace ran %d file(s), and %d were given\n", n, len(files))
			return 2
		}
	}
	tmp, err := os.MkdirTemp("", "moonmind-replay-")
	if err != nil {
		fmt.Fprintln(stderr, "moonmind replay:", err)
		return 2
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "new.jsonl")
	var runErr strings.Builder
	if inputs == nil {
		inputs = []hostInput{} // a trace without inputs: the new run asks the ground and the sensors
	}
	var changed []string
	hooks := runHooks{replay: inputs, ground: ground, sensors: hdr.Sensors, changed: &changed, llmAnswers: recorded}
	// Exit status 1 is a run whose scripts raised errors: its trace holds
	// them, and the comparison below judges it like any other.
	if code := runWith(append(runArgs, "--trace", path), io.Discard, &runErr, hooks); code == 2 {
		fmt.Fprintf(stderr, "moonmind replay: the run failed: %s", runErr.String())
		return 2
	}
	_, fresh, _, code := readTrace(path, stderr)
	if code != 0 {
		return code
	}
	for _, s := range changed {
		fmt.Fprintf(stdout, "sensor %s changed since the recorded run: it ran again instead of replaying its recorded values\n", s)
	}
	ticks := 0
	for i := 0; i < max(len(recorded), len(fresh)); i++ {
		var was, now string
		var at record.Event
		if i < len(recorded) {
			was, at = recorded[i].String(), recorded[i]
			ticks = max(ticks, recorded[i].Tick)
		}
		if i < len(fresh) {
			now = fresh[i].String()
			if i >= len(recorded) {
				at = fresh[i]
			}
		}
		if was == now {
			continue
		}
		if was == "" {
			was = "(the recorded run ends here)"
		}
		if now == "" {
			now = "(the new run ends here)"
		}
		fmt.Fprintf(stdout, "differs at record %d, tick %d, agent %s:\n  recorded: %s\n  new:      %s\n", i+1, at.Tick, at.Agent, was, now)
		return 1
	}
	fmt.Fprintf(stdout, "identical: %d records over %d ticks\n", len(recorded), ticks)
	return 0
}
