package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/moonmind-ai/moonmind/engine/reactive"
)

// SnapshotFormat and SnapshotVersion identify what World.Snapshot writes:
// a JSON object whose "format" is SnapshotFormat and whose "version" is
// SnapshotVersion. Restore reads this version and refuses any other with
// an error naming both. docs/save-and-load.md describes every field.
const (
	SnapshotFormat  = "moonmind-snapshot"
	SnapshotVersion = 1
	// maxRestoreTime is the latest world time, in seconds, a snapshot may
	// carry for Restore (about 31,700 years); past about 1e14 s a tick of
	// 1/60 s no longer moves a float64 clock.
	maxRestoreTime = 1e12
	// maxRestoreString is the longest string value, in bytes, a snapshot
	// may hold in an agent's state, inbox, facts or goals (16 MiB, the
	// longest string a Lua script may build by default).
	maxRestoreString = 16 << 20
	// maxRestoreBudget is the largest planner budget, in node expansions
	// per goal, a snapshot may give an agent (100 times a planner's default budget): a
	// damaged budget must not make one tick search for minutes.
	maxRestoreBudget = 100 * defaultBudget
	// defaultMaxRestoreBytes is RestoreOptions.MaxBytes when it is zero.
	defaultMaxRestoreBytes = 256 << 20
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
	SavedGoals() []reactive.Goal
	// RestoreGoals starts a fresh layer from a snapshot: it queues goals
	// as top-level goals in place of its initial goals, which it must not
	// add again. Called once, before the agent's first tick after a load.
	RestoreGoals(goals []reactive.Goal)
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
	// one the game already uses. Two different domains of one name (each
	// worker's Lua runtime loaded the same scripts) are an error unless
	// Domain is set: use Domain to pick each agent's worker's domain.
	Domains []*Domain
	// Domain, when set, is asked for each agent's domain instead of
	// Domains: with the agent's name, its saved pin (World.Pin; -1 when not
	// pinned) and its saved domain name. Use it when several domains have
	// one name, as when each worker's Lua runtime loaded the same scripts
	// (return the domain of the worker's runtime). A nil domain or an error
	// stops Restore with an error naming the agent.
	Domain func(agent string, pin int, domain string) (*Domain, error)
	// MaxBytes is the most bytes of snapshot Restore and AddSnapshot read;
	// a longer one is refused before it is held in memory whole. Zero
	// means 256 MiB; negative means no limit.
	MaxBytes int64
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
func (w *World) Snapshot(out io.Writer) error {
	return w.snapshot(out, w.Agents, SnapshotOptions{}, true)
}

// SnapshotOptions says what World.SnapshotWith leaves out of a snapshot.
// The zero value leaves out nothing: SnapshotWith then writes what
// Snapshot writes.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type SnapshotOptions struct {
	// NoRecorder leaves the agents' flight records out: each agent's
	// recorder is saved with its size only, and a restored agent starts
	// with an empty ring and zero counts (its summary line counts from the
	// load). The records are most of a snapshot (a soldier's full ring is
	// about 14 KB of JSON of its 24 KB), and no decision reads them, so a
	// world restored from such a snapshot makes the same decisions.
	NoRecorder bool
}

// SnapshotWith writes a snapshot as Snapshot does, leaving out what opts
// says (a saved game that does not need the flight records, say).
func (w *World) SnapshotWith(out io.Writer, opts SnapshotOptions) error {
	return w.snapshot(out, w.Agents, opts, true)
}

// SnapshotAgents writes a snapshot, in the format of Snapshot, of the
// world with only the given agents (in that order): to move them to
// another world with AddSnapshot, as when an NPC crosses into another
// shard (docs/scaling.md). It does not remove them from w. Besides the
// errors of Snapshot, an agent that is not in w is an error naming it.
// Unlike Snapshot, it writes the JSON on one line, without indentation:
// it is made to travel, and indenting was a third of its cost.
func (w *World) SnapshotAgents(out io.Writer, agents []*Agent) error {
	return w.snapshot(out, agents, SnapshotOptions{}, false)
}

// snapshot writes the snapshot of the world with the given agents,
// indented for a reader when indent is set.
func (w *World) snapshot(out io.Writer, agents []*Agent, opts SnapshotOptions, indent bool) error {
	s := worldSnap{Format: SnapshotFormat, Version: SnapshotVersion, Time: w.Time, Ticks: w.Ticks,
		Seed: w.seed, Workers: w.Workers, Timing: w.Timing,
		PlanBudget: w.PlanBudget, PlanNext: w.queue.next, PlanDebt: w.queue.debt, NextID: w.nextID,
		LODOn: w.lod.on, LODNext: w.lod.next, LODTime: snapNum(w.lod.time)}
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
		as, err := snapAgent(w, a, opts)
		if err != nil {
			return err
		}
		as.Pin = w.worker[i]
		if a.holds != nil {
			as.Holds = a.holds.Name
		}
		s.Agents = append(s.Agents, as)
	}
	s.Groups = w.saveGroups(agents)
	s.Objects = w.saveObjects(agents)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", " ")
	}
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

func snapAgent(w *World, a *Agent, opts SnapshotOptions) (agentSnap, error) {
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
	s.LOD = saveLOD(w, a)
	s.Memory = saveMemory(a)
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
	for i, n := range a.broken {
		if n != 0 && i < len(d.Actions) {
			if s.Broken == nil {
				s.Broken = map[string]int{}
			}
			s.Broken[d.Actions[i].Name] = int(n)
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
		if _, ok := t.slotIn(d.Schema); ok {
			s.Inbox = append(s.Inbox, toldSnap{From: t.from, Var: t.schema.Name(t.slot), Value: saveValue("", t.v)})
		}
	}
	for i, p := range a.rx.pursued {
		if p {
			if s.Pursued == nil {
				s.Pursued = map[string]string{}
			}
			s.Pursued[d.Goals[i].Name] = a.rx.pursueFail[i]
		}
	}
	if r := a.Recorder; r != nil && opts.NoRecorder {
		s.Recorder = &recorderSnap{Size: r.Size()}
	} else if r != nil {
		rs := &recorderSnap{Size: r.Size(), Ring: r.Records(), Counts: r.Counts()}
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
