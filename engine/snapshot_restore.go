package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/moonmind-ai/moonmind/engine/reactive"
	"github.com/moonmind-ai/moonmind/engine/record"
)

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
// the saved state and records an record.EventStart whose Reason is "restarted
// after a load"; the step then runs, finishes or fails as any other. A
// body that cannot start fails its step as in a tick (record.EventFail, back-off).
// These records are in the agent's record.Recorder at once and reach OnEvent at
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
// opts.Domains, two domains of one name in opts.Domains without
// opts.Domain, a malformed value or random source, a time outside 0 to
// 1e12 seconds or negative ticks, a snapshot longer than opts.MaxBytes, a
// planner budget above 1,000,000 node expansions, a string value longer
// than 16 MiB, in the state of a domain with SafeNumbers
// a number it may not hold (NaN, or a finite one of magnitude 2^53 or
// more: see expr.SafeNumber); each names the agent and field involved.
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
	s, err := readSnapshot(in, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	if s.Workers > maxRestoreWorkers {
		return nil, fmt.Errorf("engine: restore: workers %d is more than %d", s.Workers, maxRestoreWorkers)
	}
	if !(s.Time >= 0 && s.Time <= maxRestoreTime) {
		// A clock this far out no longer moves by a tick's dt: every wait
		// and back-off would last forever.
		return nil, fmt.Errorf("engine: restore: time %s is not from 0 to %s seconds", formatSnapFloat(s.Time), formatSnapFloat(maxRestoreTime))
	}
	if s.Ticks < 0 {
		return nil, fmt.Errorf("engine: restore: ticks %d is negative", s.Ticks)
	}
	if t := float64(s.LODTime); !(t >= 0 && t <= maxRestoreTime) {
		return nil, fmt.Errorf("engine: restore: level-of-detail time %s is not from 0 to %s seconds", formatSnapFloat(t), formatSnapFloat(maxRestoreTime))
	}
	w := NewWorld(s.Seed)
	if err := loadRand(w.src, s.Rand, "the world"); err != nil {
		return nil, err
	}
	w.Time, w.Ticks, w.Workers, w.Timing = s.Time, s.Ticks, s.Workers, s.Timing
	w.PlanBudget, w.queue.next, w.queue.debt = s.PlanBudget, s.PlanNext, s.PlanDebt
	w.lod.on, w.lod.next, w.lod.time = s.LODOn, s.LODNext, float64(s.LODTime)
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
	s, err := readSnapshot(in, opts.MaxBytes)
	if err != nil {
		return nil, &snapshotError{err}
	}
	agents, err := w.addSnapshot(s, opts, false)
	if err != nil {
		return nil, &snapshotError{err}
	}
	return agents, nil
}

func readSnapshot(in io.Reader, maxBytes int64) (*worldSnap, error) {
	if maxBytes == 0 {
		maxBytes = defaultMaxRestoreBytes
	}
	var lim *limitReader
	if maxBytes > 0 {
		lim = &limitReader{r: in, left: maxBytes}
		in = lim
	}
	var s worldSnap
	if err := json.NewDecoder(in).Decode(&s); err != nil {
		if lim != nil && lim.over {
			return nil, fmt.Errorf("engine: restore: the snapshot is longer than %d bytes (RestoreOptions.MaxBytes)", maxBytes)
		}
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
		if d == nil {
			continue
		}
		if had := domains[d.Name]; had != nil {
			if had != d && opts.Domain == nil {
				// One runtime per worker loads the same scripts: which
				// worker's domain an agent gets must be the game's choice,
				// or two workers would tick agents of one runtime.
				return nil, fmt.Errorf("engine: restore: RestoreOptions.Domains has two domains named %q (one per worker's runtime?); give RestoreOptions.Domain, which returns the domain of the worker each agent is pinned to", d.Name)
			}
			continue
		}
		domains[d.Name] = d
		names = append(names, d.Name)
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
		act, err := a.load(as, float64(s.LODTime))
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
			w.lodExact(a, s.Agents[i].LOD)
		}
	}
	err := w.loadGroups(s, agents)
	if err == nil {
		err = w.loadObjects(s, agents, whole)
	}
	if err != nil {
		for _, a := range agents {
			w.Remove(a) // on error no agent is added
		}
		return nil, err
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
	a.emit(record.Event{Kind: record.EventStart, Goal: goalName(a.goal), Action: act.Name, Reason: "restarted after a load"})
}

// load sets the agent from its snapshot, whose level-of-detail clock read
// lodTime, and returns the action to restart (nil when none was mid-run).
func (a *Agent) load(s *agentSnap, lodTime float64) (*Action, error) {
	d := a.Domain
	where := "agent " + a.Name
	if !(s.Time >= 0 && s.Time <= maxRestoreTime) {
		return nil, fmt.Errorf("engine: restore: %s: time %s is not from 0 to %s seconds", where, formatSnapFloat(s.Time), formatSnapFloat(maxRestoreTime))
	}
	if s.Tick < 0 || s.Clock.N < 0 {
		return nil, fmt.Errorf("engine: restore: %s: ticks %d (clock %d) is negative", where, s.Tick, s.Clock.N)
	}
	if s.Budget > maxRestoreBudget {
		return nil, fmt.Errorf("engine: restore: %s: budget %d is more than %d node expansions, the most a snapshot may give", where, s.Budget, maxRestoreBudget)
	}
	if r := s.Recorder; r != nil && (r.Size < 0 || r.Size > maxRestoreRecorder) {
		return nil, fmt.Errorf("engine: restore: %s: recorder size %d is not from 0 to %d records", where, r.Size, maxRestoreRecorder)
	}
	a.tick, a.time = s.Tick, s.Time
	a.Authorities = append([]string(nil), s.Authorities...)
	a.clock = clock{base: s.Clock.Base, dt: s.Clock.DT, rate: s.Clock.Rate, n: s.Clock.N}
	if err := a.loadLOD(s.LOD, lodTime, where); err != nil {
		return nil, err
	}
	if err := a.loadMemory(s.Memory, where); err != nil {
		return nil, err
	}
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
	for name, n := range s.Broken {
		if act := d.Action(name); act != nil && n > 0 {
			if a.broken == nil {
				a.broken = make([]uint8, len(d.Actions))
			}
			a.broken[act.Index] = uint8(min(n, 255))
		}
	}
	for i, sen := range d.Sensors {
		a.sensorNext[i], a.sensorLast[i] = float64(s.SensorNext[sen.Name]), float64(s.SensorLast[sen.Name])
		if _, ok := s.SensorLast[sen.Name]; !ok && s.Tick > 0 {
			a.sensorLast[i] = math.NaN() // a sensor added since: its first run gets the tick's dt
		}
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
		if err == nil && d.SafeNumbers {
			err = safeNumber(v)
		}
		if err != nil {
			return nil, fmt.Errorf("engine: restore: %s: inbox %s: %w", where, t.Var, err)
		}
		if slot, ok := d.Schema.Lookup(t.Var); ok {
			a.rx.inbox = append(a.rx.inbox, told{to: a, schema: d.Schema, slot: slot, v: v, from: t.From})
			a.marks |= markTold
		}
	}
	if s.Recorder != nil {
		r := record.New(s.Recorder.Size)
		for _, e := range s.Recorder.Ring {
			r.Add(e)
		}
		if err := r.SetCounts(s.Recorder.Counts); err != nil {
			return nil, fmt.Errorf("engine: restore: %s: recorder counts: %w", where, err)
		}
		a.Recorder = r
	}
	if rs, ok := a.layer.(ReactiveSaver); ok && s.Tick > 0 {
		var goals []reactive.Goal
		for _, gs := range s.Reactive {
			g := reactive.Goal{Tuple: gs.Tuple}
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

// limitReader reads at most left bytes of r and then fails, noting that
// the input went on.
type limitReader struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			l.over = true
			return 0, errors.New("snapshot too long")
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
