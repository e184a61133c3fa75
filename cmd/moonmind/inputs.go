package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// hostInput is one input the host gave an agent during a run, one line of
// a trace (kind "input", after the records): what a sensor wrote, or what
// a host method answered and what it changed in the agent's state. replay
// feeds these back instead of asking the training ground and the sensors
// again, so a run whose sensors or host methods read something that
// differs from run to run still replays.
type hostInput struct {
	Kind  string `json:"kind"` // always "input"
	Tick  int    `json:"tick"`
	Agent string `json:"agent"`
	// From is "sensor" (Name is the sensor) or "host" (Name is the npc
	// method, Args its arguments, First whether the call began it, Done
	// and Results its answer).
	From    string       `json:"from"`
	Name    string       `json:"name"`
	Args    []string     `json:"args,omitempty"`
	First   bool         `json:"first,omitempty"`
	Done    bool         `json:"done,omitempty"`
	Results []string     `json:"results,omitempty"`
	Writes  []inputWrite `json:"writes,omitempty"`
	Error   string       `json:"error,omitempty"`
}

// inputWrite is one state variable an input set, its value as a literal
// ("unknown" for an unknown value).
type inputWrite struct {
	Var   string `json:"var"`
	Value string `json:"value"`
}

// agentInputs are one agent's inputs: those recorded so far, or, under
// replay, those still to feed back. Only the agent's own worker touches
// them.
type agentInputs struct {
	name     string
	log      []hostInput            // recorded, in order
	sensors  map[string][]hostInput // to feed, by sensor
	host     []hostInput            // to feed, in call order
	diverged bool                   // a host call differed from the record: ask the ground from then on
	inSensor bool                   // a sensor runs: its host calls are part of what it wrote
}

// inputLog records the inputs of a run, or feeds those of a recorded run
// back. Agents are registered before the first tick; after that each
// agent's entry is touched only by its worker, so ticking on several
// workers needs no lock.
type inputLog struct {
	off       bool // neither records nor feeds: a run without --trace
	replaying bool
	recorded  map[string][]hostInput // under replay: by agent name
	agents    map[*engine.Agent]*agentInputs
	order     []*agentInputs
	wrapped   map[*engine.Sensor]bool
	// prints are the fingerprints of the sensors' sources, by
	// "Role/sensor"; recordedPrints those of the recorded run. Under
	// replay a sensor whose print changed runs again (live), and changed
	// names it.
	prints         map[string]string
	recordedPrints map[string]string
	live           map[string]bool
	changed        []string
	scans          scans
}

// newInputLog makes a log that records (recorded == nil) or that feeds
// recorded inputs back; prints are the recorded run's sensor fingerprints
// (nil for a trace without them: every sensor is fed back).
func newInputLog(recorded []hostInput, prints map[string]string) *inputLog {
	l := &inputLog{agents: map[*engine.Agent]*agentInputs{}, wrapped: map[*engine.Sensor]bool{},
		prints: map[string]string{}, recordedPrints: prints, live: map[string]bool{}, scans: newScans()}
	if recorded != nil {
		l.replaying = true
		l.recorded = map[string][]hostInput{}
		for _, in := range recorded {
			l.recorded[in.Agent] = append(l.recorded[in.Agent], in)
		}
	}
	return l
}

// add registers an agent and wraps its domain's sensors (once per domain).
func (l *inputLog) add(a *engine.Agent) {
	if l.off {
		return
	}
	ai := &agentInputs{name: a.Name, sensors: map[string][]hostInput{}}
	for _, in := range l.recorded[a.Name] {
		if in.From == "sensor" {
			ai.sensors[in.Name] = append(ai.sensors[in.Name], in)
		} else {
			ai.host = append(ai.host, in)
		}
	}
	l.agents[a] = ai
	l.order = append(l.order, ai)
	for _, s := range a.Domain.Sensors {
		if l.wrapped[s] {
			continue
		}
		l.wrapped[s] = true
		key := a.Domain.Name + "/" + s.Name
		if _, done := l.prints[key]; !done {
			l.prints[key] = l.sensorPrint(s)
			if old, ok := l.recordedPrints[key]; l.replaying && ok && old != l.prints[key] {
				l.live[key] = true
				l.changed = append(l.changed, key)
			}
		}
		s.Run = l.sensor(s.Name, l.live[key], s.Run)
	}
}

// sensorPrint is a fingerprint of a sensor's Lua source (its lines in its
// file), or "" when the source is not found.
func (l *inputLog) sensorPrint(s *engine.Sensor) string {
	t, ok := l.scans.entry(s.Pos, s.Name)
	if !ok {
		return ""
	}
	lines := strings.Split(readSource(s.Pos.File), "\n")
	if t.First < 1 || t.Last > len(lines) || t.First > t.Last {
		return ""
	}
	h := fnv.New64a()
	for _, line := range lines[t.First-1 : t.Last] {
		h.Write([]byte(strings.TrimSpace(line) + "\n"))
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// sensor wraps a sensor's run: it records what the sensor wrote, or
// writes what the record says instead of running it (a sensor the record
// does not know, one that runs beyond it, and a live one, whose source
// changed, run for real).
func (l *inputLog) sensor(name string, live bool, run func(*engine.Agent, float64) error) func(*engine.Agent, float64) error {
	return func(a *engine.Agent, dt float64) error {
		ai := l.agents[a]
		if ai == nil {
			return run(a, dt)
		}
		if l.replaying && !live {
			if q := ai.sensors[name]; len(q) > 0 {
				ai.sensors[name] = q[1:]
				return q[0].apply(a)
			}
			return run(a, dt)
		}
		before := a.State.Clone()
		ai.inSensor = true
		err := run(a, dt)
		ai.inSensor = false
		in := hostInput{Kind: "input", Tick: a.Ticks(), Agent: a.Name, From: "sensor", Name: name, Writes: diffState(a, before)}
		if err != nil {
			in.Error = err.Error()
		}
		ai.log = append(ai.log, in)
		return err
	}
}

// host wraps the training ground's methods: each call's answer and the
// state it changed are recorded, or, under replay, fed back while the
// scripts make the same calls as the recorded run (same method, arguments
// and start). The ground is still asked, so that its own state (where the
// agent stands) goes on as in the recorded run, but its answer and its
// writes are replaced by the recorded ones. From the first call that
// differs, the agent's calls are answered by the ground alone.
func (l *inputLog) host(methods map[string]luabind.HostFunc) map[string]luabind.HostFunc {
	if l.off {
		return methods
	}
	out := make(map[string]luabind.HostFunc, len(methods))
	for name, f := range methods {
		out[name] = func(c *luabind.HostCall) (bool, error) {
			ai := l.agents[c.Agent]
			if ai == nil || ai.inSensor {
				return f(c)
			}
			if l.replaying {
				if !ai.diverged {
					if len(ai.host) > 0 && ai.host[0].Name == c.Name && ai.host[0].First == c.First && slices.Equal(ai.host[0].Args, literals(c.Args)) {
						rec := ai.host[0]
						ai.host = ai.host[1:]
						before := c.Agent.State.Clone()
						_, _ = f(c)
						copy(c.Agent.State, before)
						c.Results = c.Results[:0]
						for _, r := range rec.Results {
							c.Results = append(c.Results, parseInputValue(r))
						}
						return rec.Done, rec.apply(c.Agent)
					}
					ai.diverged = true
				}
				// Diverged: the ground answers, and nothing is recorded,
				// so neither the arguments nor the state are copied.
				return f(c)
			}
			args := literals(c.Args)
			before := c.Agent.State.Clone()
			done, err := f(c)
			in := hostInput{Kind: "input", Tick: c.Agent.Ticks(), Agent: c.Agent.Name, From: "host", Name: c.Name,
				Args: args, First: c.First, Done: done, Writes: diffState(c.Agent, before)}
			if done {
				in.Results = literals(c.Results)
			}
			if err != nil {
				in.Error = err.Error()
			}
			ai.log = append(ai.log, in)
			return done, err
		}
	}
	return out
}

// write writes every recorded input as JSON Lines, agent by agent in the
// order they were added, each agent's inputs in the order they came.
func (l *inputLog) write(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, ai := range l.order {
		for _, in := range ai.log {
			if err := enc.Encode(in); err != nil {
				return err
			}
		}
	}
	return nil
}

// String formats the input as one line, as moonmind trace --kind input
// prints it: the sensor and what it wrote, or the host method, its
// arguments and its answer.
func (in hostInput) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tick %4d  %-12s input       ", in.Tick, in.Agent)
	if in.From == "sensor" {
		b.WriteString("sensor " + in.Name)
	} else {
		fmt.Fprintf(&b, "npc:%s(%s)", in.Name, strings.Join(in.Args, ", "))
		switch {
		case !in.Done && in.Error == "":
			b.WriteString(" goes on")
		case len(in.Results) > 0:
			b.WriteString(" -> " + strings.Join(in.Results, ", "))
		}
	}
	for i, w := range in.Writes {
		sep := ", "
		if i == 0 {
			sep = " wrote "
		}
		b.WriteString(sep + w.Var + "=" + w.Value)
	}
	if in.Error != "" {
		b.WriteString(" error=" + strconv.Quote(in.Error))
	}
	return b.String()
}

// apply sets the recorded writes on a and returns the recorded error.
func (in hostInput) apply(a *engine.Agent) error {
	for _, w := range in.Writes {
		if slot, ok := a.Domain.Schema.Lookup(w.Var); ok {
			a.State[slot] = parseInputValue(w.Value)
		}
	}
	if in.Error != "" {
		return errors.New(in.Error)
	}
	return nil
}

// diffState lists the variables of a whose value differs from before.
func diffState(a *engine.Agent, before expr.State) []inputWrite {
	var out []inputWrite
	for i, v := range a.State {
		if i >= len(before) || !v.Equal(before[i]) {
			out = append(out, inputWrite{Var: a.Domain.Schema.Name(i), Value: v.String()})
		}
	}
	return out
}

func literals(vs []expr.Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// parseInputValue reads a value written by Value.String: "unknown" (never
// a string, which is quoted) is the unknown value.
func parseInputValue(s string) expr.Value {
	if s == "unknown" {
		return expr.Value{}
	}
	v, err := expr.ParseLiteral(s)
	if err != nil {
		return expr.Value{}
	}
	return v
}
