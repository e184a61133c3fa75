package engine

import (
	"math"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine/record"
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
	// matter most, 1, 2, ... for the others. Tick calls it once a tick
	// for every agent, all before any agent ticks: with one worker or a
	// Budget on the caller's goroutine in agent order, else on the
	// workers, each for the agents of its lane, at the same time. So it
	// may read the game and the agents but must not change them (nor
	// anything another call reads). Nil turns level of detail off; the
	// next tick then ticks every agent, each with the time it was still
	// owed.
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

// lodState is an agent's level of detail between ticks.
type lodState struct {
	owed  float64 // game time since the agent last thought, in seconds
	due   float64 // game time left until it thinks next, in seconds
	rate  float64 // its think rate in thinks per second; 0: every tick
	level int32   // its level this tick
	shown int32   // the level its last lod record named (0 before any)
}

// lodLanes is a world's level of detail during a tick: per worker, the
// agents of its lane that think this tick, with their dts and their own
// prefetch hints.
type lodLanes struct {
	on     bool    // LOD was on at the last tick
	use    bool    // this tick ticks the lanes below, not the world's
	next   int     // the ID of the due agent served first under the budget
	lastDt float64 // the last positive dt (see thinkersFrom)
	dt     float64 // this tick's dt and the one rates are compared with, for levelsOfLane
	tickDt float64
	think  []bool    // per agent index: it thinks this tick
	due    []int32   // scratch: the indexes of the agents due at a lowered rate
	lanes  [][]int32 // per worker: its thinkers, in lane order
	dts    [][]float64
	hints  [][]uint8
}

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
// tick and with what dt (see LOD): on the caller's goroutine, or on the
// workers lane by lane when there is no budget. In the first
// tick after LOD.Level was set to nil, every agent ticks, each with its
// owed time and dt; the ticks after it are the plain ones.
func (w *World) thinkers(dt float64) {
	if w.LOD.Level != nil {
		w.thinkersFrom(dt, false)
		return
	}
	for _, a := range w.Agents {
		a.lod.rate, a.lod.level, a.lod.due = 0, 0, 0
	}
	w.thinkersFrom(dt, true)
	for _, a := range w.Agents {
		a.lod = lodState{}
	}
	w.lod.on = false
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
// and 0 for every tick.
func (w *World) rateFor(a *Agent, level int) float64 {
	rates := a.Domain.ThinkRates
	if rates == nil {
		rates = w.LOD.Rates
	}
	if level < 0 || len(rates) == 0 {
		return 0
	}
	r := rates[min(level, len(rates)-1)]
	if !(r > 0) || math.IsInf(r, 0) {
		return 0
	}
	return r
}

func (w *World) thinkersFrom(dt float64, all bool) {
	l := &w.lod
	l.on, l.use = true, true
	n := len(w.Agents)
	// The tick rate that rates are compared with: a tick of dt 0 (a game
	// paused, or a bad dt) keeps the last one, so it changes no rate.
	tickDt := dt
	if dt > 0 {
		l.lastDt = dt
	} else {
		tickDt = l.lastDt
	}
	k := len(w.lanes)
	if len(l.lanes) != k {
		l.lanes, l.dts, l.hints = make([][]int32, k), make([][]float64, k), make([][]uint8, k)
	}
	if !all && w.LOD.Budget <= 0 && k > 1 {
		// Without a budget each agent's choice is its own: each worker
		// makes its lane's, all of them before any agent ticks.
		l.dt, l.tickDt = dt, tickDt
		w.runPhase(dt, k, phaseLevels)
		return
	}
	if cap(l.think) < n {
		l.think = make([]bool, n)
	}
	l.think = l.think[:n]
	l.due = l.due[:0]
	for i, a := range w.Agents {
		if all {
			a.lod.owed += dt
			l.think[i] = true
			continue
		}
		every, due := w.lodChoose(a, dt, tickDt)
		l.think[i] = every
		if due {
			l.due = append(l.due, int32(i))
		}
	}
	w.serveDue()
	for k, lane := range w.lanes {
		ll, dts := l.lanes[k][:0], l.dts[k][:0]
		for _, i := range lane {
			if l.think[i] {
				ll, dts = append(ll, i), append(dts, w.Agents[i].lodServe())
			}
		}
		l.lanes[k], l.dts[k] = ll, dts
		l.sizeHints(k)
	}
}

// levelsOfLane is the level-of-detail phase of lane k without a budget
// (thinkersFrom): the choice of each of its agents, and its thinkers
// with their dts, in lane order.
func (w *World) levelsOfLane(k int) {
	l := &w.lod
	ll, dts := l.lanes[k][:0], l.dts[k][:0]
	for _, i := range w.lanes[k] {
		a := w.Agents[i]
		if every, due := w.lodChoose(a, l.dt, l.tickDt); every || due {
			ll, dts = append(ll, i), append(dts, a.lodServe())
		}
	}
	l.lanes[k], l.dts[k] = ll, dts
	l.sizeHints(k)
}

// sizeHints makes lane k's prefetch hints long enough for its thinkers.
func (l *lodLanes) sizeHints(k int) {
	if h := l.hints[k]; len(h) < len(l.lanes[k])+1 {
		l.hints[k] = append(h[:0], make([]uint8, len(l.lanes[k])+1)...)
	}
}

// lodChoose adds a tick of dt to the agent's owed time, asks its level
// and sets its rate (tickDt is the tick the rates are compared with). It
// reports whether it thinks every tick, or else whether it is due at its
// lowered rate.
func (w *World) lodChoose(a *Agent, dt, tickDt float64) (every, due bool) {
	const eps = 1e-9
	s := &a.lod
	s.owed += dt
	level := w.LOD.Level(a)
	rate := w.rateFor(a, level)
	s.level = int32(max(math.MinInt32, min(level, math.MaxInt32)))
	if rate > 0 && 1/rate <= tickDt+eps {
		rate = 0 // at or above the tick rate
	}
	if rate == 0 {
		s.rate, s.due = 0, 0
		return true, false
	}
	period := 1 / rate
	switch {
	case rate == s.rate:
		s.due -= dt
	case s.rate == 0: // from every tick to a lowered rate: wait part of a period
		s.due = period*lodPhase(a.ID) - dt
	default: // a new lowered rate
		s.due = min(s.due, period) - dt
	}
	s.rate = rate
	return false, s.due <= eps
}

// lodServe is the agent's part when it thinks this tick: it returns the
// time it is owed (its dt) and pays it, schedules its next think, and
// records a change of level.
func (a *Agent) lodServe() (dt float64) {
	const eps = 1e-9
	s := &a.lod
	dt, s.owed = s.owed, 0
	if s.rate > 0 {
		if s.due += 1 / s.rate; s.due <= eps {
			s.due = 1 / s.rate // served late (the budget): a whole period from now
		}
	}
	if s.level != s.shown {
		s.shown = s.level
		a.recordLOD()
	}
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
