package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/llm"
	"github.com/moonmind-ai/moonmind/engine/llm/openaichat"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["run"] = command{what: "run agents of one or more roles headless in one world on a training ground and print every decision",
		usage: "run [NAME=]FILE... [--ticks N] [--dt S] [--seed N] [--agents N] [--workers N] [--state k=v]... [--authority NAME]... [--trace FILE] [--timing] [--plan-budget N] [--llm URL] [--llm-model M] [--inspect ADDR [--control]] [--realtime]",
		run:   runCmd,
	}
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	return runWith(args, stdout, stderr, runHooks{})
}

// runHooks are what replay and tests change in a run.
type runHooks struct {
	// replay, when not nil, are the inputs of a recorded run to feed back
	// (see inputLog); nil records the run's inputs.
	replay []hostInput
	// sensors are the recorded run's sensor fingerprints (see runHeader),
	// under replay; a sensor whose fingerprint differs runs again, and its
	// name is appended to changed.
	sensors map[string]string
	changed *[]string
	// ground, when set, changes the training ground's methods (tests give
	// it methods whose answers differ from run to run).
	ground func(map[string]luabind.HostFunc) map[string]luabind.HostFunc
	// terminal, when set, says which outputs are terminals (tests); nil
	// asks the operating system.
	terminal func(io.Writer) bool
	// progress, when set, is when the progress bar shows and how often it
	// is drawn; nil means defaultProgress (tests draw it at every tick).
	progress *progressTiming
	// llmAnswers, under replay, are the recorded run's records: its
	// npc:llm_plan answers come from them, never from a model.
	llmAnswers []record.Event
	// stop, when set, stands for the interrupt (Ctrl-C) that ends a run
	// with --inspect or --realtime (tests close it).
	stop <-chan struct{}
}

// runWith is runCmd with what replay and tests change (see runHooks).
func runWith(args []string, stdout, stderr io.Writer, hooks runHooks) int {
	fs := newFlagSet("run", stderr)
	var states stateFlags
	fs.Var(&states, "state", "set a state variable of every agent that has it, name=value (repeatable)"+stateValues)
	var auths authorityFlags
	fs.Var(&auths, "authority", "grant every agent an authority that secured actions need (repeatable)")
	ticks := fs.Int("ticks", 100, "number of ticks to run")
	dt := fs.Float64("dt", 0.1, "seconds per tick")
	seed := fs.Uint64("seed", 1, "world seed")
	agents := fs.Int("agents", 1, "number of agents carrying the role")
	workers := fs.Int("workers", 1, "goroutines ticking the agents, each with its own Lua state")
	tracePath := fs.String("trace", "", "write every flight-recorder record to this file as JSON Lines")
	timing := fs.Bool("timing", false, "record how long each planning took (wall time: differs from run to run)")
	planBudget := fs.Int("plan-budget", 0, "planning budget per tick in node expansions, shared by all agents (0: unlimited); searches over it are suspended and resumed")
	inspectAddr := fs.String("inspect", "", "serve the live inspector at this address (127.0.0.1:8790) during the run and after it, until interrupted; an address other machines reach needs a token in $"+tokenEnv)
	control := fs.Bool("control", false, "with --inspect: the page may pause, step, set breakpoints, set state and reload the role files")
	realtime := fs.Bool("realtime", false, "tick at real time (dt seconds of wall time per tick) and go on past --ticks until interrupted")
	llmURL := fs.String("llm", "", "offer npc:llm_plan through the OpenAI-compatible chat server at this API root, e.g. http://127.0.0.1:8080/v1 (default $"+llm.EnvBaseURL+"; with neither, npc:llm_plan returns nil, \"unavailable\")")
	llmModel := fs.String("llm-model", "", "the model npc:llm_plan asks (default $"+llm.EnvModel+", else "+openaichat.DefaultModel+")")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	specs, err := parseRunAgents(pos)
	if err != nil {
		fmt.Fprintln(stderr, "moonmind run:", err)
		return 2
	}
	switch {
	case *ticks < 0:
		fmt.Fprintln(stderr, "moonmind run: --ticks must be >= 0")
		return 2
	case !(*dt > 0) || math.IsInf(*dt, 0):
		fmt.Fprintln(stderr, "moonmind run: --dt must be a number of seconds > 0")
		return 2
	case *agents < 1:
		fmt.Fprintln(stderr, "moonmind run: --agents must be >= 1")
		return 2
	case *planBudget < 0:
		fmt.Fprintln(stderr, "moonmind run: --plan-budget must be >= 0 (0 is unlimited)")
		return 2
	case *workers < 1 || *workers > 256:
		fmt.Fprintln(stderr, "moonmind run: --workers must be in 1..256")
		return 2
	case *control && *inspectAddr == "":
		fmt.Fprintln(stderr, "moonmind run: --control is for the inspector: give --inspect ADDR too")
		return 2
	case *agents > 1 && len(specs) > 1:
		fmt.Fprintln(stderr, "moonmind run: --agents is for one role file; with several, each file is one agent")
		return 2
	}
	// One Lua runtime per worker: its agents run their bodies there.
	inputs := newInputLog(hooks.replay, hooks.sensors)
	inputs.off = *tracePath == "" && hooks.replay == nil // nothing would keep them
	hostOf := func(g *trainingGround) map[string]luabind.HostFunc {
		m := g.host()
		if hooks.ground != nil {
			m = hooks.ground(m)
		}
		return inputs.host(m)
	}
	llmOpts, err := runLLMOptions(*llmURL, *llmModel, hooks)
	if err != nil {
		fmt.Fprintln(stderr, "moonmind run:", err)
		return 2
	}
	domains, rts, closeAll, err := loadRunDomains(specs, *workers, filepath.Dir(specs[0].file), hostOf, llmOpts)
	defer closeAll()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	var trace *os.File
	var records []record.Event
	if *tracePath != "" {
		f, err := os.Create(*tracePath)
		if err != nil {
			fmt.Fprintln(stderr, "moonmind run:", err)
			return 2
		}
		defer f.Close()
		trace = f
	}
	terminal := hooks.terminal
	if terminal == nil {
		terminal = isTerminal
	}
	colour := colourOK(terminal(stdout), os.Getenv)
	pt := defaultProgress
	if hooks.progress != nil {
		pt = *hooks.progress
	}
	bar := newProgress(stderr, *ticks, terminal(stderr), terminal(stdout), pt, time.Now)
	w := engine.NewWorld(*seed)
	w.Workers = *workers
	w.Timing = *timing
	w.PlanBudget = *planBudget
	w.OnEvent = func(e record.Event) {
		bar.beforeLine()
		fmt.Fprintln(stdout, recordLine(e, colour))
		if trace != nil {
			records = append(records, e)
		}
	}
	// Each worker's agents are added together, in one block (see
	// World.Pin): lane k is agents k*n/workers up to (k+1)*n/workers.
	ags := runAgents(specs, domains[0], *agents)
	for i, ag := range ags {
		lane := i * *workers / len(ags)
		d := domains[lane][ag.spec]
		a := newAgent(ag.name, d)
		a.Authorities = auths
		if err := applyStates(d, a.State, statesFor(d, states, domains[0], len(specs) > 1)); err != nil {
			fmt.Fprintln(stderr, "moonmind run:", err)
			return 2
		}
		w.Add(a)
		w.Pin(i, lane)
		inputs.add(a)
	}
	// The smart objects the roles declare, once each (the first lane's
	// runtime answers their offers functions).
	for _, d := range domains[0] {
		if err := rts[0].AddObjects(w, d); err != nil {
			fmt.Fprintln(stderr, "moonmind run:", err)
			return 2
		}
	}
	if hooks.changed != nil {
		*hooks.changed = inputs.changed
	}
	live, err := startLive(*inspectAddr, *control, *realtime, *dt, w, rts, specFiles(specs), hooks.stop, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "moonmind run:", err)
		return 2
	}
	for i := 0; (i < *ticks || *realtime) && !live.stopped(); {
		if live.tick(w, *dt) {
			i++
			bar.done(min(i, *ticks))
		}
	}
	bar.finish()
	w.Finish()
	defer live.linger(w, stderr)
	if trace != nil {
		// The run's arguments first, for moonmind replay.
		err := writeRunHeader(trace, args, inputs.prints)
		if err == nil {
			err = record.WriteJSONLines(trace, records)
		}
		if err == nil {
			err = inputs.write(trace)
		}
		if err != nil {
			fmt.Fprintln(stderr, "moonmind run:", err)
			return 2
		}
	}
	// A script that raised an error while the agents ran is broken, even
	// when the run went on (the action failed and backed off): a build
	// that runs a role sees it in the exit status.
	faults := 0
	for _, rt := range rts {
		faults += rt.ScriptErrors()
	}
	if faults > 0 {
		bar.beforeLine()
		fmt.Fprintf(stderr, "moonmind run: the scripts raised %d %s while the agents ran (each is a record above, with its file and line)\n", faults, plural(faults, "error", "errors"))
		return 1
	}
	return 0
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// recordLine formats one record as run prints it; with colour, the kind
// of a record that went wrong is red (a failure, a plan that failed, a
// sensor or condition that failed, stuck) or yellow (an interruption, a
// replan, a refused plan).
func recordLine(e record.Event, colour bool) string {
	line := e.String()
	var c string
	switch e.Kind {
	case record.EventFail, record.EventPlanFailed, record.EventSensorFailed, record.EventConditionFailed, record.EventStuck:
		c = colourRed
	case record.EventInterrupt, record.EventReplan, record.EventRefused:
		c = colourYellow
	}
	if !colour || c == "" {
		return line
	}
	prefix := fmt.Sprintf("tick %4d  t=%7.3fs  %-12s ", e.Tick, e.Time, e.Agent)
	kind := e.Kind.String()
	if !strings.HasPrefix(line, prefix+kind) {
		return line
	}
	return prefix + paint(true, c, kind) + line[len(prefix)+len(kind):]
}

// trainingGround provides the host methods a script may call when it runs
// without a game: every agent starts at (0, 0) and walks at 100 px/s,
// every "nearest" thing is at (100, 0), and shoot() hits a training dummy
// whose health is the agent's enemy_health variable (10 per shot).
type trainingGround struct {
	pos map[*engine.Agent][2]float64
}

const groundSpeed = 100.0 // pixels per second

func newTrainingGround() *trainingGround {
	return &trainingGround{pos: map[*engine.Agent][2]float64{}}
}

func (g *trainingGround) host() map[string]luabind.HostFunc {
	return map[string]luabind.HostFunc{
		"position": func(c *luabind.HostCall) (bool, error) {
			p := g.pos[c.Agent]
			c.Results = []expr.Value{expr.NumberValue(p[0]), expr.NumberValue(p[1])}
			return true, nil
		},
		"nearest": func(c *luabind.HostCall) (bool, error) {
			c.Results = []expr.Value{expr.NumberValue(100), expr.NumberValue(0)}
			return true, nil
		},
		"move_to": func(c *luabind.HostCall) (bool, error) {
			if len(c.Args) != 2 {
				return false, errors.New("expected x, y")
			}
			tx, okx := c.Args[0].AsNumber()
			ty, oky := c.Args[1].AsNumber()
			if !okx || !oky {
				return false, errors.New("expected numbers x, y")
			}
			p := g.pos[c.Agent]
			dx, dy := tx-p[0], ty-p[1]
			dist := math.Hypot(dx, dy)
			step := groundSpeed * c.DT
			if dist <= step {
				g.pos[c.Agent] = [2]float64{tx, ty}
				return true, nil
			}
			g.pos[c.Agent] = [2]float64{p[0] + dx/dist*step, p[1] + dy/dist*step}
			return false, nil
		},
		"shoot": func(c *luabind.HostCall) (bool, error) {
			if h, ok := c.Agent.Get("enemy_health").AsNumber(); ok {
				c.Agent.Set("enemy_health", expr.NumberValue(math.Max(0, h-10)))
			}
			return true, nil
		},
	}
}

// runLLMOptions says how a run serves npc:llm_plan: from the recorded
// answers under replay; through the chat server at url (or
// $MOONMIND_LLM_BASE_URL, as the demo reads it) with the role's actions
// as capabilities, each answer delivered the tick after its request so
// that a run repeats; else unavailable (nil, "unavailable" at once).
func runLLMOptions(url, model string, hooks runHooks) (luabind.LLMOptions, error) {
	if hooks.replay != nil {
		return luabind.LLMOptions{Replay: append([]record.Event{}, hooks.llmAnswers...)}, nil
	}
	if url == "" && !llm.EnvConfigured() {
		return luabind.LLMOptions{Unavailable: true}, nil
	}
	client := openaichat.New(openaichat.Options{BaseURL: url, Model: model})
	planner, err := llm.NewDynamicPlanner(client).Build()
	if err != nil {
		return luabind.LLMOptions{}, err
	}
	return luabind.LLMOptions{Planner: planner, DeliverAfterTicks: 1}, nil
}
