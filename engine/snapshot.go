package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
)

// SnapshotFormat and SnapshotVersion identify what World.Snapshot writes:
// a JSON object whose "format" is SnapshotFormat and whose "version" is
// SnapshotVersion. Restore reads this version and refuses any other with
// an error naming both. docs/save-and-load.md describes every field.
const (
	SnapshotFormat  = "moonmind-snapshot"
	SnapshotVersion = 1
	// MaxRestoreTime is the latest world time, in seconds, a snapshot may
	// carry for Restore (about 31,700 years); past about 1e14 s a tick of
	// 1/60 s no longer moves a float64 clock.
	MaxRestoreTime = 1e12
)

// ReactiveSaver is an optional interface of a Reactive layer, through
// which World.Snapshot and Restore keep what a reactive layer pursues.
// Intentions are running coroutines and cannot be written down, so a
// layer saves its top-level goals instead and, after a load, starts fresh
// intentions for them (package engine/bdi implements it).
// World.Snapshot and Restore call it from their caller's goroutine, between
// ticks.
type ReactiveSaver interface {
	// SavedGoals returns the top-level goals the layer is pursuing or has
	// queued, oldest first, without duplicates.
	SavedGoals() []GoalValue
	// RestoreGoals starts a fresh layer from a snapshot: it queues goals
	// as top-level goals in place of its initial goals, which it must not
	// add again. Called once, before the agent's first tick after a load.
	RestoreGoals(goals []GoalValue)
}

// RestoreOptions says how Restore finds the domains of the saved agents.
// The zero value has none, so only a snapshot of a world without agents
// restores.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type RestoreOptions struct {
	// Domains are the compiled domains the saved agents may use; an agent
	// gets the one whose Name (its role names joined with "+") equals the
	// name saved with it. A saved name that none has is an error naming
	// the agent and the domain. Domains are shared, as always: pass each
	// one the game already uses.
	Domains []*Domain
	// Domain, when set, is asked for each agent's domain instead of
	// Domains: with the agent's name, its saved pin (World.Pin; -1 when not
	// pinned) and its saved domain name. Use it when several domains have
	// one name, as when each worker's Lua runtime loaded the same scripts
	// (return the domain of the worker's runtime). A nil domain or an error
	// stops Restore with an error naming the agent.
	Domain func(agent string, pin int, domain string) (*Domain, error)
}

// Snapshot writes the world to out as one JSON document (see
// SnapshotVersion and docs/save-and-load.md): the clock, the seed and the
// state of the world's random source, the workers and pins, and for every
// agent, in order, its name, domain name, state, settings, planner limits,
// current goal, plan and step, the action it is running, back-offs, sensor
// timers, the stuck clock, beliefs told but not yet delivered, goals handed
// to the planners, its random source, its flight recorder's ring and
// counts, and the top-level goals of its reactive layer when the layer is
// a ReactiveSaver.
//
// Typed facts (SetFact) are saved through the domain's FactCodec
// (Domain.Facts; JSONFacts, encoding/json, when none is set), in the order
// of Domain.Types, and Restore reads them back with the same codec before
// any body restarts. A fact the codec cannot encode is an error naming the
// agent and the type.
//
// Not saved, since they are code or belong to the game: Data, OnEvent,
// action bodies and sensors (the domain brings them back), a planner
// handle set with SetPlannerHandle, considerations set on the utility
// planner by hand, and running tasks (see Restore for what happens to a
// step that was mid-run). Under a plan budget (World.PlanBudget, which is
// saved with the queue's cursor and debt), the searches waiting in the
// queue or suspended are not saved: a restored agent that waited asks
// again at its next decision and its search starts from the beginning.
//
// Call it between ticks. It is an error when the world's or an agent's
// Rand was replaced with a source Snapshot cannot read (it saves only the
// PCG sources that NewWorld and World.Add make), or when out fails. The
// world is not changed.
func (w *World) Snapshot(out io.Writer) error { return w.snapshot(out, w.Agents) }

// SnapshotAgents writes a snapshot, in the format of Snapshot, of the
// world with only the given agents (in that order): to move them to
// another world with AddSnapshot, as when an NPC crosses into another
// shard (docs/scaling.md). It does not remove them from w. Besides the
// errors of Snapshot, an agent that is not in w is an error naming it.
func (w *World) SnapshotAgents(out io.Writer, agents []*Agent) error { return w.snapshot(out, agents) }

func (w *World) snapshot(out io.Writer, agents []*Agent) error {
	s := worldSnap{Format: SnapshotFormat, Version: SnapshotVersion, Time: w.Time, Ticks: w.Ticks,
		Seed: w.Seed, Workers: w.Workers, Timing: w.Timing,
		PlanBudget: w.PlanBudget, PlanNext: w.queue.next, PlanDebt: w.queue.debt, NextID: w.nextID}
	if w.clock.now() == w.Time {
		s.Clock = &clockSnap{Base: w.clock.base, DT: w.clock.dt, Rate: w.clock.rate, N: w.clock.n}
	}
	var err error
	if s.Rand, err = saveRand(w.Rand, w.src, "the world"); err != nil {
		return err
	}
	for _, a := range agents {
		i := w.indexOf(a)
		if i < 0 {
			return errors.New("engine: snapshot: agent " + a.Name + " is not in the world")
		}
		as, err := snapAgent(a)
		if err != nil {
			return err
		}
		as.Pin = w.worker[i]
		s.Agents = append(s.Agents, as)
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(&s); err != nil {
		return fmt.Errorf("engine: snapshot: %w", err)
	}
	return nil
}

func (w *World) indexOf(a *Agent) int {
	for i, x := range w.Agents {
		if x == a {
			return i
		}
	}
	return -1
}

// Restore reads a snapshot written by World.Snapshot and returns the world
// it describes, its agents made with NewAgent over opts.Domains and added
// in their saved order, with their saved IDs, pins and random sources. Set
// OnEvent, Data and anything else Snapshot does not save on the result
// before its first tick.
//
// A world restored from a snapshot taken where no action body was mid-run
// makes the same decisions, records and random draws as the original
// would have. A running body cannot be saved: an agent that was running a
// step restarts that step. Restore starts the action's body afresh from
// the saved state and records an EventStart whose Reason is "restarted
// after a load"; the step then runs, finishes or fails as any other. A
// body that cannot start fails its step as in a tick (EventFail, back-off).
// These records are in the agent's Recorder at once and reach OnEvent at
// the world's next tick.
// Intentions of a reactive layer restart the same way, from their
// top-level goals (see ReactiveSaver); belief events queued in the layer
// at the time of the snapshot are not replayed.
//
// A domain may have changed since the snapshot (a hot reload): state
// variables are matched by name (a variable the snapshot lacks takes its
// initial value, one the domain lacks is dropped); back-offs and sensor
// timers by action and sensor name; a plan or goal naming an action or goal
// the domain lacks is dropped, so the agent decides afresh.
//
// Errors, all beginning "engine: restore: " and all matching ErrSnapshot
// under errors.Is: JSON that does not parse, a format or version other
// than SnapshotFormat and SnapshotVersion, workers above 1,024 (each
// worker is a goroutine per tick, so a damaged count would stall the
// game), an agent whose domain is not in
// opts.Domains, a malformed value or random source, a time outside 0 to
// MaxRestoreTime seconds or negative ticks; each names the agent and
// field involved.
func Restore(in io.Reader, opts RestoreOptions) (*World, error) {
	w, err := restore(in, opts)
	if err != nil {
		return nil, &snapshotError{err}
	}
	return w, nil
}

// maxRestoreWorkers bounds the World.Workers a snapshot may ask for: Tick
// starts one goroutine per worker, so a damaged count must not reach it.
const maxRestoreWorkers = 1024

// maxRestoreRecorder bounds a restored flight recorder's size, in
// records: a damaged size must not let one agent's ring keep every
// record it is ever given.
const maxRestoreRecorder = 1 << 20

func restore(in io.Reader, opts RestoreOptions) (*World, error) {
	s, err := readSnapshot(in)
	if err != nil {
		return nil, err
	}
	if s.Workers > maxRestoreWorkers {
		return nil, fmt.Errorf("engine: restore: workers %d is more than %d", s.Workers, maxRestoreWorkers)
	}
	if !(s.Time >= 0 && s.Time <= MaxRestoreTime) {
		// A clock this far out no longer moves by a tick's dt: every wait
		// and back-off would last forever.
		return nil, fmt.Errorf("engine: restore: time %s is not from 0 to %s seconds", formatSnapFloat(s.Time), formatSnapFloat(MaxRestoreTime))
	}
	if s.Ticks < 0 {
		return nil, fmt.Errorf("engine: restore: ticks %d is negative", s.Ticks)
	}
	w := NewWorld(s.Seed)
	if err := loadRand(w.src, s.Rand, "the world"); err != nil {
		return nil, err
	}
	w.Time, w.Ticks, w.Workers, w.Timing = s.Time, s.Ticks, s.Workers, s.Timing
	w.PlanBudget, w.queue.next, w.queue.debt = s.PlanBudget, s.PlanNext, s.PlanDebt
	if c := s.Clock; c != nil {
		w.clock = clock{base: c.Base, dt: c.DT, rate: c.Rate, n: c.N} // Tick rebases it if it disagrees with Time
	}
	if _, err := w.addSnapshot(s, opts, true); err != nil {
		return nil, err
	}
	w.nextID = s.NextID
	for _, a := range w.Agents {
		w.nextID = max(w.nextID, a.ID+1)
	}
	return w, nil
}

// AddSnapshot reads a snapshot written by World.Snapshot and adds its
// agents to w, after w's own, as Restore would restore them: each with its
// saved state, plan, clocks, recorder and random source (Add would give it
// a new one), its ID its index in w and no pin. The snapshot's world clock,
// random source and workers are ignored: w keeps its own. This is how a
// game server takes in agents moved from another shard (docs/scaling.md).
// On error (those of Restore) no agent is added. Call it between ticks.
func (w *World) AddSnapshot(in io.Reader, opts RestoreOptions) ([]*Agent, error) {
	s, err := readSnapshot(in)
	if err != nil {
		return nil, &snapshotError{err}
	}
	agents, err := w.addSnapshot(s, opts, false)
	if err != nil {
		return nil, &snapshotError{err}
	}
	return agents, nil
}

func readSnapshot(in io.Reader) (*worldSnap, error) {
	var s worldSnap
	if err := json.NewDecoder(in).Decode(&s); err != nil {
		return nil, fmt.Errorf("engine: restore: %w", err)
	}
	if s.Format != SnapshotFormat {
		return nil, fmt.Errorf("engine: restore: format %q is not %q", s.Format, SnapshotFormat)
	}
	if s.Version != SnapshotVersion {
		return nil, fmt.Errorf("engine: restore: snapshot version %d, this engine reads version %d", s.Version, SnapshotVersion)
	}
	return &s, nil
}

// addSnapshot builds every saved agent, then adds them all to w; whole
// says that w is the saved world itself (IDs and pins as saved).
func (w *World) addSnapshot(s *worldSnap, opts RestoreOptions, whole bool) ([]*Agent, error) {
	domains := map[string]*Domain{}
	var names []string
	for _, d := range opts.Domains {
		if d != nil && domains[d.Name] == nil {
			domains[d.Name] = d
			names = append(names, d.Name)
		}
	}
	agents := make([]*Agent, 0, len(s.Agents))
	restarts := make([]*Action, 0, len(s.Agents))
	for i := range s.Agents {
		as := &s.Agents[i]
		d := domains[as.Domain]
		if opts.Domain != nil {
			var err error
			if d, err = opts.Domain(as.Name, as.Pin, as.Domain); err != nil {
				return nil, fmt.Errorf("engine: restore: agent %s: %w", as.Name, err)
			}
			if d == nil {
				return nil, fmt.Errorf("engine: restore: agent %s: RestoreOptions.Domain gave no domain for %q", as.Name, as.Domain)
			}
		}
		if d == nil {
			return nil, fmt.Errorf("engine: restore: agent %s: no domain %q in RestoreOptions.Domains%s", as.Name, as.Domain, DidYouMean(as.Domain, names))
		}
		a := NewAgent(as.Name, d)
		a.src = newRandSource(0, 0)
		a.Rand = a.src.r
		act, err := a.load(as)
		if err != nil {
			return nil, err
		}
		agents = append(agents, a)
		restarts = append(restarts, act)
	}
	for i, a := range agents {
		w.adopt(a)
		if whole {
			w.worker[len(w.worker)-1] = s.Agents[i].Pin
			a.ID = s.Agents[i].ID
		}
	}
	for i, act := range restarts {
		if act != nil {
			agents[i].restartStep(act)
		}
	}
	return agents, nil
}

// restartStep starts the step that was mid-run at the snapshot.
func (a *Agent) restartStep(act *Action) {
	if act.Body == nil {
		a.fail(act, newError("action \""+act.Name+"\" has no body"))
		return
	}
	task, err := act.Body.Start(a, act)
	if err != nil {
		a.fail(act, err)
		return
	}
	a.setTask(task, act)
	copy(a.started, a.State)
	copy(a.post, a.State)
	a.sinceRescore = allSlots
	a.emit(Event{Kind: EventStart, Goal: goalName(a.goal), Action: act.Name, Reason: "restarted after a load"})
}

type worldSnap struct {
	Format  string     `json:"format"`
	Version int        `json:"version"`
	Time    float64    `json:"time"`
	Ticks   int        `json:"ticks"`
	Seed    uint64     `json:"seed"`
	Rand    []byte     `json:"rand"`
	Workers int        `json:"workers,omitempty"`
	Timing  bool       `json:"timing,omitempty"`
	Clock   *clockSnap `json:"clock,omitempty"` // the world's exact clock; absent: count on from Time
	// The plan budget and its queue's cursor and debt (world_slice.go).
	PlanBudget int `json:"planBudget,omitempty"`
	PlanNext   int `json:"planNext,omitempty"`
	PlanDebt   int `json:"planDebt,omitempty"`
	// NextID is the ID the next added agent gets (IDs are never reused);
	// absent in older snapshots: one past the highest agent ID.
	NextID int         `json:"nextID,omitempty"`
	Agents []agentSnap `json:"agents"`
}

type agentSnap struct {
	Name         string             `json:"name"`
	Domain       string             `json:"domain"`
	ID           int                `json:"id"`
	Pin          int                `json:"pin"`
	Tick         int                `json:"tick"`
	Time         float64            `json:"time"`
	State        []varSnap          `json:"state"`
	Rand         []byte             `json:"rand"`
	RetryDelay   snapNum            `json:"retryDelay,omitempty"`
	StuckAfter   snapNum            `json:"stuckAfter,omitempty"`
	Commitment   snapNum            `json:"commitment,omitempty"`
	RethinkEvery snapNum            `json:"rethinkEvery,omitempty"`
	MaxDepth     int                `json:"maxDepth,omitempty"`
	Budget       int                `json:"budget,omitempty"`
	Chaining     bool               `json:"chaining"`
	Planning     bool               `json:"planning"`
	Goal         string             `json:"goal,omitempty"`
	Picked       bool               `json:"picked,omitempty"`
	Plan         []string           `json:"plan,omitempty"`
	Step         int                `json:"step"`
	Running      string             `json:"running,omitempty"`
	Satisfied    []string           `json:"satisfied,omitempty"`
	Cooldown     map[string]snapNum `json:"cooldown,omitempty"`
	SensorNext   map[string]snapNum `json:"sensorNext,omitempty"`
	SensorLast   map[string]snapNum `json:"sensorLast,omitempty"`
	SenseErr     []string           `json:"senseErrors,omitempty"`
	FailedState  []varSnap          `json:"failedState,omitempty"`
	RetryAt      snapNum            `json:"retryAt"`
	RethinkAt    snapNum            `json:"rethinkAt"`
	LastProgress snapNum            `json:"lastProgress"`
	Stuck        bool               `json:"stuck,omitempty"`
	Idle         bool               `json:"idle,omitempty"`
	Seen         []varSnap          `json:"seen,omitempty"`
	Inbox        []toldSnap         `json:"inbox,omitempty"`
	Pursued      map[string]string  `json:"pursued,omitempty"`
	Recorder     *recorderSnap      `json:"recorder,omitempty"`
	Reactive     []goalSnap         `json:"reactiveGoals,omitempty"`
	Clock        clockSnap          `json:"clock"`
	Pursuit      string             `json:"pursuit,omitempty"`
	Authorities  []string           `json:"authorities,omitempty"`
	Facts        []factSnap         `json:"factValues,omitempty"`
	Ran          []string           `json:"ran,omitempty"`
}

// clockSnap is an agent's or the world's exact clock (see clock): the time its current
// run of equal dt began, that dt, its rate when whole, and the ticks of
// the run.
type clockSnap struct {
	Base float64 `json:"base"`
	DT   float64 `json:"dt"`
	Rate float64 `json:"rate,omitempty"`
	N    int     `json:"n"`
}

type toldSnap struct {
	From  string  `json:"from"`
	Var   string  `json:"var"`
	Value varSnap `json:"value"`
}

type recorderSnap struct {
	Size   int            `json:"size"`
	Ring   []Event        `json:"ring"`
	Counts map[string]int `json:"counts,omitempty"`
}

type goalSnap struct {
	Tuple bool      `json:"tuple,omitempty"`
	Terms []varSnap `json:"terms"`
}

// varSnap is one value, with the variable's name when it is one: exactly
// one of Bool, Number, String and Nil is set, or none for Unknown (a
// missing value). Special holds "NaN", "+Inf" or "-Inf", which JSON has no
// number for.
type varSnap struct {
	Name    string   `json:"name,omitempty"`
	Bool    *bool    `json:"bool,omitempty"`
	Number  *float64 `json:"number,omitempty"`
	Special string   `json:"special,omitempty"`
	String  *string  `json:"string,omitempty"`
	Nil     bool     `json:"nil,omitempty"`
}

func saveValue(name string, v Value) varSnap {
	s := varSnap{Name: name}
	switch v.Kind() {
	case Bool:
		b, _ := v.AsBool()
		s.Bool = &b
	case Number:
		f, _ := v.AsNumber()
		if s.Special = specialName(f); s.Special == "" {
			s.Number = &f
		}
	case String:
		str, _ := v.AsString()
		s.String = &str
	case Nil:
		s.Nil = true
	}
	return s
}

func (s varSnap) value() (Value, error) {
	n := 0
	var v Value
	if s.Bool != nil {
		n++
		v = BoolValue(*s.Bool)
	}
	if s.Number != nil {
		n++
		v = NumberValue(*s.Number)
	}
	if s.Special != "" {
		n++
		f, ok := specialNumber(s.Special)
		if !ok {
			return Value{}, fmt.Errorf("special number %q is none of NaN, +Inf, -Inf", s.Special)
		}
		v = NumberValue(f)
	}
	if s.String != nil {
		n++
		v = StringValue(*s.String)
	}
	if s.Nil {
		n++
		v = NilValue()
	}
	if n > 1 {
		return Value{}, errors.New("more than one of bool, number, special, string, nil")
	}
	return v, nil
}

func saveState(d *Domain, st State) []varSnap {
	out := make([]varSnap, 0, len(st))
	for i, v := range st {
		out = append(out, saveValue(d.Schema.Name(i), v))
	}
	return out
}

// loadState writes the saved variables the domain has into st, by name.
func loadState(d *Domain, st State, vars []varSnap, agent, field string) error {
	for _, vs := range vars {
		v, err := vs.value()
		if err != nil {
			return fmt.Errorf("engine: restore: agent %s: %s %s: %w", agent, field, vs.Name, err)
		}
		if slot, ok := d.Schema.Lookup(vs.Name); ok && slot < len(st) {
			st[slot] = v
		}
	}
	return nil
}

// randSource is a Rand made by NewWorld or World.Add and its PCG source.
// Rand of math/rand/v2 keeps no state besides its source, so saving the
// source saves the Rand.
type randSource struct {
	pcg *rand.PCG
	r   *rand.Rand
}

func newRandSource(seed, seq uint64) randSource {
	pcg := rand.NewPCG(seed, seq)
	return randSource{pcg: pcg, r: rand.New(pcg)}
}

// Reseed restarts the agent's random source (Rand) from seed: a PCG
// seeded with seed and seed^0x9e3779b97f4a7c15, as Lua's math.randomseed
// does. Unlike assigning Rand, a reseeded source is one World.Snapshot
// saves. Call it from the goroutine that ticks the agent.
func (a *Agent) Reseed(seed uint64) {
	if a.src.pcg == nil {
		a.src = newRandSource(seed, seed^0x9e3779b97f4a7c15)
	} else {
		a.src.pcg.Seed(seed, seed^0x9e3779b97f4a7c15)
	}
	a.Rand = a.src.r
}

func saveRand(r *rand.Rand, src randSource, who string) ([]byte, error) {
	if src.pcg == nil || r != src.r {
		return nil, errors.New("engine: snapshot: " + who + "'s Rand was replaced; Snapshot saves only the one NewWorld or World.Add made")
	}
	return src.pcg.MarshalBinary()
}

func loadRand(src randSource, b []byte, who string) error {
	if err := src.pcg.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("engine: restore: %s: rand: %w", who, err)
	}
	return nil
}

func snapAgent(a *Agent) (agentSnap, error) {
	d := a.Domain
	s := agentSnap{Name: a.Name, Domain: d.Name, ID: a.ID, Tick: a.tick, Time: a.time,
		State:      saveState(d, a.State),
		RetryDelay: snapNum(a.RetryDelay), StuckAfter: snapNum(a.StuckAfter), Commitment: snapNum(a.Commitment), RethinkEvery: snapNum(a.RethinkEvery),
		Goal: goalName(a.goal), Picked: a.picked, Step: a.step, Planning: a.handle != nil,
		RetryAt: snapNum(a.retryAt), RethinkAt: snapNum(a.rethinkAt), LastProgress: snapNum(a.lastProg), Stuck: a.stuck, Idle: a.idle}
	s.Authorities = append(s.Authorities, a.Authorities...)
	facts, err := a.saveFacts()
	if err != nil {
		return s, err
	}
	s.Facts = facts
	s.Clock = clockSnap{Base: a.clock.base, DT: a.clock.dt, Rate: a.clock.rate, N: a.clock.n}
	if a.pursuit != nil {
		s.Pursuit = a.pursuit.Name
	}
	for i, r := range a.ran {
		if r && i < len(d.Actions) {
			s.Ran = append(s.Ran, d.Actions[i].Name)
		}
	}
	if s.Rand, err = saveRand(a.Rand, a.src, "agent "+a.Name); err != nil {
		return s, err
	}
	if a.planner != nil {
		s.MaxDepth, s.Budget, s.Chaining = a.planner.MaxDepth, a.planner.Budget, a.planner.Chaining
	}
	s.Plan = names(a.plan)
	if a.running != nil {
		s.Running = a.running.Name
	}
	for _, g := range d.Goals {
		if g.Index < len(a.sat()) && a.sat()[g.Index] {
			s.Satisfied = append(s.Satisfied, g.Name)
		}
	}
	for i, t := range a.cooldown {
		if t != 0 {
			if s.Cooldown == nil {
				s.Cooldown = map[string]snapNum{}
			}
			s.Cooldown[d.Actions[i].Name] = snapNum(t)
		}
	}
	for i, sen := range d.Sensors {
		if s.SensorNext == nil {
			s.SensorNext, s.SensorLast = map[string]snapNum{}, map[string]snapNum{}
		}
		s.SensorNext[sen.Name], s.SensorLast[sen.Name] = snapNum(a.sensorNext[i]), snapNum(a.sensorLast[i])
	}
	s.SenseErr = append(s.SenseErr, a.senseErr...)
	if len(a.failedState) > 0 {
		s.FailedState = saveState(d, a.failedState)
	}
	if a.rx.seen != nil {
		s.Seen = saveState(d, a.rx.seen)
	}
	for _, t := range a.rx.inbox {
		s.Inbox = append(s.Inbox, toldSnap{From: t.from, Var: d.Schema.Name(t.slot), Value: saveValue("", t.v)})
	}
	for i, p := range a.rx.pursued {
		if p {
			if s.Pursued == nil {
				s.Pursued = map[string]string{}
			}
			s.Pursued[d.Goals[i].Name] = a.rx.pursueFail[i]
		}
	}
	if r := a.Recorder; r != nil {
		rs := &recorderSnap{Size: r.size, Ring: r.Records()}
		for k := EventKind(1); k < maxEventKind; k++ {
			if n := r.Count(k); n != 0 {
				if rs.Counts == nil {
					rs.Counts = map[string]int{}
				}
				rs.Counts[k.String()] = n
			}
		}
		s.Recorder = rs
	}
	if rs, ok := a.layer.(ReactiveSaver); ok {
		for _, g := range rs.SavedGoals() {
			gs := goalSnap{Tuple: g.Tuple}
			for _, t := range g.Terms {
				gs.Terms = append(gs.Terms, saveValue("", t))
			}
			s.Reactive = append(s.Reactive, gs)
		}
	}
	return s, nil
}

// load sets the agent from its snapshot and returns the action to restart
// (nil when none was mid-run).
func (a *Agent) load(s *agentSnap) (*Action, error) {
	d := a.Domain
	where := "agent " + a.Name
	if !(s.Time >= 0 && s.Time <= MaxRestoreTime) {
		return nil, fmt.Errorf("engine: restore: %s: time %s is not from 0 to %s seconds", where, formatSnapFloat(s.Time), formatSnapFloat(MaxRestoreTime))
	}
	if s.Tick < 0 || s.Clock.N < 0 {
		return nil, fmt.Errorf("engine: restore: %s: ticks %d (clock %d) is negative", where, s.Tick, s.Clock.N)
	}
	if r := s.Recorder; r != nil && (r.Size < 0 || r.Size > maxRestoreRecorder) {
		return nil, fmt.Errorf("engine: restore: %s: recorder size %d is not from 0 to %d records", where, r.Size, maxRestoreRecorder)
	}
	a.tick, a.time = s.Tick, s.Time
	a.Authorities = append([]string(nil), s.Authorities...)
	a.clock = clock{base: s.Clock.Base, dt: s.Clock.DT, rate: s.Clock.Rate, n: s.Clock.N}
	if s.Pursuit != "" {
		a.pursuit = d.Goal(s.Pursuit)
	}
	if len(s.Ran) > 0 {
		a.ran = make([]bool, len(d.Actions))
		for _, name := range s.Ran {
			if act := d.Action(name); act != nil {
				a.ran[act.Index] = true
			}
		}
	}
	if err := loadState(d, a.State, s.State, a.Name, "state"); err != nil {
		return nil, err
	}
	if err := a.loadFacts(s.Facts); err != nil {
		return nil, err
	}
	if err := loadRand(a.src, s.Rand, where); err != nil {
		return nil, err
	}
	a.RetryDelay, a.StuckAfter, a.Commitment, a.RethinkEvery = float64(s.RetryDelay), float64(s.StuckAfter), float64(s.Commitment), float64(s.RethinkEvery)
	a.planner.MaxDepth, a.planner.Budget, a.planner.Chaining = s.MaxDepth, s.Budget, s.Chaining
	if !s.Planning {
		a.handle = nil
	}
	a.retryAt, a.rethinkAt, a.lastProg, a.stuck, a.idle = float64(s.RetryAt), float64(s.RethinkAt), float64(s.LastProgress), s.Stuck, s.Idle
	a.progGoal = 0
	for _, name := range s.Satisfied {
		if g := d.Goal(name); g != nil {
			a.sat()[g.Index] = true
		}
	}
	for name, t := range s.Cooldown {
		if act := d.Action(name); act != nil {
			a.cooldown[act.Index] = float64(t)
		}
	}
	for i, sen := range d.Sensors {
		a.sensorNext[i], a.sensorLast[i] = float64(s.SensorNext[sen.Name]), float64(s.SensorLast[sen.Name])
	}
	if len(s.SenseErr) == len(d.Sensors)+len(d.Conditions) {
		a.senseErr = append([]string(nil), s.SenseErr...)
	}
	_, layerSaves := a.layer.(ReactiveSaver)
	for name, why := range s.Pursued {
		if layerSaves {
			break // the layer asks again for the goals it restarts
		}
		if g := d.Goal(name); g != nil {
			a.Pursue(g)
			a.rx.pursueFail[g.Index] = why
		}
	}
	a.idle = s.Idle
	if s.FailedState != nil {
		a.failedState = d.NewState()
		if err := loadState(d, a.failedState, s.FailedState, a.Name, "failedState"); err != nil {
			return nil, err
		}
	}
	if s.Seen != nil && a.layer != nil {
		a.rx.seen = d.NewState()
		if err := loadState(d, a.rx.seen, s.Seen, a.Name, "seen"); err != nil {
			return nil, err
		}
	}
	for _, t := range s.Inbox {
		v, err := t.Value.value()
		if err != nil {
			return nil, fmt.Errorf("engine: restore: %s: inbox %s: %w", where, t.Var, err)
		}
		if slot, ok := d.Schema.Lookup(t.Var); ok {
			a.rx.inbox = append(a.rx.inbox, told{to: a, slot: slot, v: v, from: t.From})
			a.marks |= markTold
		}
	}
	if s.Recorder != nil {
		r := NewRecorder(s.Recorder.Size)
		for _, e := range s.Recorder.Ring {
			r.Add(e)
		}
		r.count = [countKinds]int{}
		for name, n := range s.Recorder.Counts {
			var k EventKind
			if err := k.UnmarshalText([]byte(name)); err != nil {
				return nil, fmt.Errorf("engine: restore: %s: recorder counts: %w", where, err)
			}
			r.setCount(k, n)
		}
		a.Recorder = r
	}
	if rs, ok := a.layer.(ReactiveSaver); ok && s.Tick > 0 {
		var goals []GoalValue
		for _, gs := range s.Reactive {
			g := GoalValue{Tuple: gs.Tuple}
			for _, t := range gs.Terms {
				v, err := t.value()
				if err != nil {
					return nil, fmt.Errorf("engine: restore: %s: reactive goal: %w", where, err)
				}
				g.Terms = append(g.Terms, v)
			}
			goals = append(goals, g)
		}
		rs.RestoreGoals(goals)
	}
	return a.loadPlan(s), nil
}

// loadPlan restores the goal, plan and step, and returns the action that
// was mid-run. A plan the domain can no longer express is dropped.
func (a *Agent) loadPlan(s *agentSnap) *Action {
	d := a.Domain
	if s.Goal != "" {
		if a.goal = d.Goal(s.Goal); a.goal == nil {
			a.dropPlan()
			return nil
		}
	}
	a.picked = s.Picked
	for _, name := range s.Plan {
		act := d.Action(name)
		if act == nil {
			a.dropPlan()
			return nil
		}
		a.plan = append(a.plan, act)
	}
	if s.Step < 0 || s.Step > len(a.plan) {
		a.dropPlan()
		return nil
	}
	a.step = s.Step
	if s.Running == "" {
		return nil
	}
	if a.step >= len(a.plan) || a.plan[a.step].Name != s.Running {
		a.dropPlan()
		return nil
	}
	return a.plan[a.step]
}

func formatSnapFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// snapNum is an agent's setting or timer in seconds (or score units) as a
// snapshot holds it: a JSON number when finite, else the string "+Inf",
// "-Inf" or "NaN", which JSON has no number for. An agent may hold any of
// them (StuckAfter = +Inf never marks it STUCK), so its snapshot keeps them
// exactly, as varSnap's Special does for state values.
type snapNum float64

// MarshalJSON writes f as encoding/json writes a float64, or as one of the
// three strings.
func (f snapNum) MarshalJSON() ([]byte, error) {
	if name := specialName(float64(f)); name != "" {
		return []byte(`"` + name + `"`), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads a number or one of the three strings; any other
// string is a *json.UnmarshalTypeError naming it (and, once encoding/json
// adds it, the field).
func (f *snapNum) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '"' {
		var x float64
		err := json.Unmarshal(b, &x)
		*f = snapNum(x)
		return err
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	x, ok := specialNumber(s)
	if !ok {
		// encoding/json adds the field's path to this error.
		return &json.UnmarshalTypeError{Value: "string " + strconv.Quote(s) + " (a number, or one of NaN, +Inf, -Inf)", Type: reflect.TypeFor[float64]()}
	}
	*f = snapNum(x)
	return nil
}

// specialName is "NaN", "+Inf" or "-Inf" for the numbers JSON has no
// number for, else "": how a snapshot writes them (varSnap.Special,
// snapNum).
func specialName(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return ""
}

// specialNumber is specialName's inverse; ok is false for any other text.
func specialNumber(name string) (f float64, ok bool) {
	switch name {
	case "NaN":
		return math.NaN(), true
	case "+Inf":
		return math.Inf(1), true
	case "-Inf":
		return math.Inf(-1), true
	}
	return 0, false
}
