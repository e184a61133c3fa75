package engine

import (
	"math"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/internal/prefetch"
)

// LOD is a world's level of detail: agents that matter less to the
// player (far from the camera, say) think less often. An agent that does
// not think in a tick is not ticked at all; when it next thinks, it ticks
// once with the game time since it last thought as its dt, so its body
// moves it as far as the skipped ticks would have, its waits count that
// time, and its sensors are told it. A far agent tells the same story at
// a coarser grain. See docs/lod.md.
//
// The zero value is off: every agent ticks every tick with the world's dt,
// and the world pays nothing for the feature.
type LOD struct {
	// Level returns the agent's level of detail: 0 for the agents that
	// matter most, 1, 2, ... for the others. Tick asks it only of the
	// agents due to think in the tick: every tick of an agent that
	// thinks every tick, else when its lowered-rate period (or its first
	// wait) is over, so a level the game raises reaches an agent at a
	// lowered rate at its next due think. The calls are all made before
	// any agent ticks: with one worker or a Budget on the caller's
	// goroutine in agent order, else on the workers, each for the agents
	// of its lane, at the same time. So it may read the game and the
	// agents but must not change them (nor anything another call reads).
	// Nil turns level of detail off; the next tick then ticks every
	// agent, each with the time it was still owed.
	Level func(a *Agent) int
	// Rates are the think rates of levels 0, 1, 2, ..., in thinks per
	// second of game time: an agent at level i thinks Rates[i] times a
	// second, a level past the end at the last rate. An agent whose domain
	// has its own rates (Domain.ThinkRates, a role's lod table) uses
	// those. A rate at or above the tick rate, a rate that is not a
	// positive number, a negative level and a level with no rate at all
	// think every tick.
	Rates []float64
	// Budget is the most agents that think at a lowered rate in one tick;
	// agents that think every tick do not count. Agents that are due
	// beyond it wait, their owed time growing, and are served first in
	// the next ticks: the due agents are taken in order of ID from a
	// cursor that moves past the last one served, as a ring. The default
	// (zero) value, like a negative one, is no limit.
	Budget int
}

// lodState is an agent's level of detail between ticks. Its times are
// on the world's level-of-detail clock (lodLanes.time); while the agent
// is in no world (removed, or loaded from a snapshot and not yet added)
// they are relative to that clock's time, so adopt can place them on
// another world's.
type lodState struct {
	thought float64 // the time at the end of its last think: it is owed the time since
	next    float64 // when it is looked at next, while its rate is lowered (mirrors lodLanes.at)
	rate    float64 // its think rate in thinks per second; 0: every tick
	level   int32   // its level at its last look
	shown   int32   // the level its last lod record named (0 before any)
}

// lodLanes is a world's level of detail: the schedule of its agents, and
// during a tick, per worker, the agents of its lane that think this tick,
// with their dts and prefetch hints.
type lodLanes struct {
	on     bool    // LOD was on at the last tick
	use    bool    // this tick ticks the lanes below, not the world's
	next   int     // the ID of the due agent served first under the budget
	lastDt float64 // the last positive dt (see thinkers)
	time   float64 // the level of detail's clock: the sum of the dts of the ticks under it
	now    float64 // this tick's start on that clock
	after  float64 // this tick's end on that clock
	dt     float64 // this tick's dt
	tickDt float64 // the dt rates are compared with (see thinkers)
	// at is, per agent index, when the agent is next looked at (its level
	// asked): -Inf for the agents that think every tick, and for those
	// not looked at yet. A tick reads only this of the agents that are
	// not due: with 100,000 agents, reading anything of each agent every
	// tick would cost about as much as ticking it. Add and Remove keep it
	// in step with Agents.
	at    []float64
	think []bool    // per agent index: it thinks this tick (under a budget)
	due   []int32   // scratch: the indexes of the agents due at a lowered rate (under a budget)
	scan  [][]int32 // per worker: scratch, the due agents of its lane
	lanes [][]int32 // per worker: its thinkers, in lane order
	dts   [][]float64
	hints [][]uint8
}

// lodEps is the slack of the schedule's comparisons, in seconds: an agent
// due within it of a tick's end thinks in that tick, so rounding never
// puts a think one tick late.
const lodEps = 1e-9

// LODLevel returns the agent's level of detail at its last tick under the
// world's LOD (see LOD.Level), 0 when level of detail is off, and its
// think rate in thinks per second, 0 when it thinks every tick.
func (a *Agent) LODLevel() (level int, rate float64) {
	return int(a.lod.level), a.lod.rate
}

// tickLaneOf ticks lane k: every agent in it, or under a level of detail
// the ones that think this tick, each with its owed time.
func (w *World) tickLaneOf(k int, dt float64) {
	if l := &w.lod; l.use {
		w.busy[k] = tickLane(w.Agents, l.lanes[k], l.hints[k], w.Timing, dt, l.dts[k], w.busy[k][:0])
		return
	}
	w.busy[k] = tickLane(w.Agents, w.lanes[k], w.hints[k], w.Timing, dt, nil, w.busy[k][:0])
}

// thinkers decides, before any agent ticks, which agents think this
// tick and with what dt (see LOD). Only the agents due on the schedule
// (lodLanes.at) are looked at: those that think every tick, and those
// whose lowered-rate period is over. Without a budget each worker looks
// at its own lane's; under a budget, Tick's goroutine looks at them all
// in agent order. In the first tick after LOD.Level was set to nil,
// every agent ticks, each with its owed time; the ticks after it are the
// plain ones.
func (w *World) thinkers(dt float64) {
	l := &w.lod
	if !l.on {
		w.lodStart()
	}
	l.use = true
	// The tick rate that rates are compared with: a tick of dt 0 (a game
	// paused, or a bad dt) keeps the last one, so it changes no rate.
	l.tickDt = dt
	if dt > 0 {
		l.lastDt = dt
	} else {
		l.tickDt = l.lastDt
	}
	l.dt, l.now = dt, l.time
	l.after = l.time + dt
	l.time = l.after
	k := len(w.lanes)
	if len(l.lanes) != k {
		l.lanes, l.dts, l.hints, l.scan = make([][]int32, k), make([][]float64, k), make([][]uint8, k), make([][]int32, k)
	}
	switch {
	case w.LOD.Level == nil:
		w.lodOff()
	case w.LOD.Budget > 0:
		w.thinkersBudgeted()
	case k > 1:
		w.runPhase(dt, k, phaseLevels)
	default:
		w.levelsOfLane(0)
	}
}

// lodStart puts every agent on the schedule when a level of detail
// starts: it has thought just now, and is looked at in the next tick.
func (w *World) lodStart() {
	l := &w.lod
	now := l.time
	for i, a := range w.Agents {
		a.lod = lodState{thought: now}
		l.at[i] = math.Inf(-1)
	}
	l.on = true
}

// lodOff is the tick after LOD.Level was set to nil: every agent thinks,
// with the time it is owed; then the world's level of detail is off.
func (w *World) lodOff() {
	l := &w.lod
	for k, lane := range w.lanes {
		ll, dts := l.lanes[k][:0], l.dts[k][:0]
		for _, i := range lane {
			ll, dts = append(ll, i), append(dts, w.Agents[i].lodPay(l))
		}
		l.lanes[k], l.dts[k] = ll, dts
		l.hints[k] = append(l.hints[k][:0], make([]uint8, len(ll)+1)...)
	}
	for i, a := range w.Agents {
		a.lod = lodState{}
		l.at[i] = math.Inf(-1)
	}
	l.on = false
}

// lodPhase is the share of its first period an agent waits when it starts
// thinking at a lowered rate, in (0, 1], from its ID: agents of one level
// spread over the ticks of a period rather than all thinking in one.
func lodPhase(id int) float64 {
	_, f := math.Modf(float64(id+1) * 0.6180339887498949)
	if f == 0 {
		return 1
	}
	return f
}

// rateFor returns an agent's think rate at level, in thinks per second,
// and 0 for every tick (also for a rate at or above the tick rate).
func (w *World) rateFor(a *Agent, level int) float64 {
	rates := a.Domain.ThinkRates
	if rates == nil {
		rates = w.LOD.Rates
	}
	if level < 0 || len(rates) == 0 {
		return 0
	}
	r := rates[min(level, len(rates)-1)]
	if !(r > 0) || math.IsInf(r, 0) || 1/r <= w.lod.tickDt+lodEps {
		return 0
	}
	return r
}

// lodAhead is how many due agents ahead levelsOfLane prefetches what it
// reads of an agent: its first line (Domain, for its rates; State, for
// its prefetch hint) and its lod, which lies beside ID (what a game's
// LOD.Level reads most often). Its first line the agent's tick reads
// next in any case.
const lodAhead = 8

// lodFirst is the prefetch hint levelsOfLane gives prefetch.Indexed: an
// agent's first line.
var lodFirst = [1]uint8{1}

// levelsOfLane is the level-of-detail phase of lane k without a budget
// (thinkers): it finds the lane's due agents from the schedule alone,
// looks at each (its level, its rate) and lists the ones that think, with
// their dts and prefetch hints, in lane order.
func (w *World) levelsOfLane(k int) {
	l := &w.lod
	limit, at := l.after+lodEps, l.at
	due := l.scan[k][:0]
	for _, i := range w.lanes[k] {
		if at[i] <= limit {
			due = append(due, i)
		}
	}
	l.scan[k] = due
	ll, dts, hints := l.lanes[k][:0], l.dts[k][:0], l.hints[k][:0]
	for j, i := range due {
		if m := j + lodAhead; m < len(due) {
			prefetch.Indexed(w.Agents, due[m:m+1], lodFirst[:], 0)
			prefetch.Ptr(&w.Agents[due[m]].lod)
		}
		a := w.Agents[i]
		if every, due := w.lodChoose(a, i); every || due {
			ll, dts, hints = append(ll, i), append(dts, w.lodServe(a, i)), append(hints, lodHint(a))
		}
	}
	l.lanes[k], l.dts[k], l.hints[k] = ll, dts, append(hints, 0)
}

// thinkersBudgeted is thinkers under a budget: the due agents are looked
// at in agent order, on Tick's goroutine, and the budget picks among
// those due at a lowered rate (serveDue).
func (w *World) thinkersBudgeted() {
	l := &w.lod
	n := len(w.Agents)
	if cap(l.think) < n {
		l.think = make([]bool, n)
	}
	l.think = l.think[:n]
	clear(l.think)
	l.due = l.due[:0]
	limit := l.after + lodEps
	for i, at := range l.at {
		if at > limit {
			continue
		}
		every, due := w.lodChoose(w.Agents[i], int32(i))
		l.think[i] = every
		if due {
			l.due = append(l.due, int32(i))
		}
	}
	w.serveDue()
	for k, lane := range w.lanes {
		ll, dts, hints := l.lanes[k][:0], l.dts[k][:0], l.hints[k][:0]
		for _, i := range lane {
			if l.think[i] {
				a := w.Agents[i]
				ll, dts, hints = append(ll, i), append(dts, w.lodServe(a, i)), append(hints, lodHint(a))
			}
		}
		l.lanes[k], l.dts[k], l.hints[k] = ll, dts, append(hints, 0)
	}
}

// lodChoose looks at agent a (index i), due this tick: it asks its level
// and sets its rate. It reports whether it thinks every tick, or else
// whether it is due at its lowered rate (an agent that has just come
// down from every tick first waits part of a period, lodPhase).
func (w *World) lodChoose(a *Agent, i int32) (every, due bool) {
	l := &w.lod
	s := &a.lod
	level := w.LOD.Level(a)
	rate := w.rateFor(a, level)
	s.level = int32(max(math.MinInt32, min(level, math.MaxInt32)))
	if rate == 0 {
		s.rate, s.next = 0, 0
		l.at[i] = math.Inf(-1)
		return true, false
	}
	if s.rate == 0 { // from every tick (or its first look) to a lowered rate
		s.next = l.now + lodPhase(a.ID)/rate
	}
	s.rate = rate
	l.at[i] = s.next
	return false, s.next <= l.after+lodEps
}

// lodServe is agent a's (index i) part when it thinks this tick: it
// returns the time it is owed (its dt) and pays it, schedules its next
// think a period after the one due, and records a change of level.
func (w *World) lodServe(a *Agent, i int32) (dt float64) {
	l := &w.lod
	s := &a.lod
	dt = a.lodPay(l)
	if s.rate > 0 {
		period := 1 / s.rate
		if s.next += period; s.next <= l.after+lodEps {
			s.next = l.after + period // served late (the budget): a whole period from now
		}
		l.at[i] = s.next
	}
	if s.level != s.shown {
		s.shown = s.level
		a.recordLOD()
	}
	return dt
}

// lodPay returns the game time the agent is owed at the end of this tick
// and marks it paid: exactly the tick's dt when it thought in the tick
// before.
func (a *Agent) lodPay(l *lodLanes) float64 {
	dt := l.after - a.lod.thought
	if a.lod.thought == l.now {
		dt = l.dt
	}
	a.lod.thought = l.after
	return dt
}

// serveDue marks the due agents (l.due, in agent order) that think this
// tick: all of them, or under a budget as many as it allows, in order of
// ID from the cursor, wrapping around; the cursor moves past the last one
// served.
func (w *World) serveDue() {
	l := &w.lod
	b := w.LOD.Budget
	if b <= 0 || len(l.due) <= b {
		for _, i := range l.due {
			l.think[i] = true
		}
		return
	}
	start := 0
	for start < len(l.due) && w.Agents[l.due[start]].ID < l.next {
		start++
	}
	last := 0
	for j := range b {
		i := l.due[(start+j)%len(l.due)]
		l.think[i] = true
		last = w.Agents[i].ID
	}
	l.next = last + 1
}

// lodJoin puts an agent that joins the world (adopt) on its schedule:
// its times, relative while it was in no world (see lodState), are placed
// on the world's clock, and it is looked at in the next tick unless its
// rate is lowered. An agent that owes time to a world with no level of
// detail on starts it, so that the next tick pays it (see thinkers).
func (w *World) lodJoin(a *Agent) {
	l := &w.lod
	if a.lod.thought < 0 && !l.on {
		w.lodStart()
	}
	now := l.time
	a.lod.thought += now
	at := math.Inf(-1)
	if a.lod.rate > 0 {
		a.lod.next += now
		at = a.lod.next
	}
	l.at = append(l.at, at)
}

// lodLeave takes the agent at index i off the schedule (Remove): its
// times become relative again.
func (w *World) lodLeave(a *Agent, i int) {
	l := &w.lod
	now := l.time
	a.lod.thought -= now
	a.lod.next -= now
	if !l.on {
		a.lod = lodState{}
	}
	l.at = append(l.at[:i], l.at[i+1:]...)
}

// recordLOD records the agent's new level of detail, as a record of the
// tick it is about to make.
func (a *Agent) recordLOD() {
	rate := "every tick"
	if a.lod.rate > 0 {
		rate = strconv.FormatFloat(a.lod.rate, 'g', -1, 64) + " Hz"
	}
	a.tick++ // the records of the coming tick carry its number
	a.emit(record.Event{Kind: record.EventLOD, Score: a.lod.rate,
		Reason: "level " + strconv.Itoa(int(a.lod.level)) + ", " + rate})
	a.tick--
}
