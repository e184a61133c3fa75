// Package perception is an agent's perception memory: the things it
// perceived (Stimulus), each remembered with its last known position and
// time (Remembered), whose confidence decays with a half-life and which
// are forgotten below a threshold (Memory), and lost from perception when
// no news of them comes for a while (Memory.LoseAfter, Memory.Lose). A
// Memory can keep its changes (perceived, lost, forgotten: Change) for a
// reactive layer, and gives conditions the fields of a remembered thing
// by the names memory.<source>.<field> (Family, ParseName, Memory.Value).
// It knows nothing of agents or worlds: the engine gives each agent one
// Memory (engine.Agent.Memory) and the time to read it at.
package perception

import (
	"math"
	"slices"
)

// Sense is how a stimulus was perceived.
// Its values are immutable and safe to share between goroutines.
type Sense uint8

// The senses of a Stimulus.
const (
	_           Sense = iota
	SenseSight        // seen
	SenseSound        // heard
	SenseDamage       // hurt by it
	SenseTold         // told of it by another agent
)

var senseNames = [...]string{"", "sight", "sound", "damage", "told"}

func (s Sense) String() string {
	if int(s) < len(senseNames) && s != 0 {
		return senseNames[s]
	}
	return "sense"
}

// ParseSense returns the sense named name ("sight", "sound", "damage",
// "told"), or false.
func ParseSense(name string) (Sense, bool) {
	for i, n := range senseNames {
		if i > 0 && n == name {
			return Sense(i), true
		}
	}
	return 0, false
}

// Stimulus is one perception of something: what (Source, the name the
// agent remembers it by: an enemy's name, "grenade"), how, where, and
// how strongly.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Stimulus struct {
	Source string
	Sense  Sense
	X, Y   float64
	// Strength is how sure the perception is, from 0 to 1 (a clear sight
	// 1, a faint sound 0.3); the default (zero) value means 1. Values
	// above 1 count as 1.
	Strength float64
}

// Remembered is what an agent remembers of one thing: where it was last
// perceived, how, when, and how sure the agent is of it now.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Remembered struct {
	Source string
	Sense  Sense   // the sense of the latest stimulus
	X, Y   float64 // the last known position
	// At is the agent's time, in seconds, of the latest stimulus; Age is
	// the time since then, at the time asked about.
	At, Age float64
	// Confidence is how sure the agent is of it at the time asked about:
	// the strength it was last perceived with, halved every
	// Memory.HalfLife seconds since.
	Confidence float64
	// Strength is the confidence at At: the strength of the latest
	// stimulus, or what the memory still held then if that was more.
	Strength float64
	// Lost is true once the thing is out of perception: no news of it
	// for Memory.LoseAfter seconds, or Memory.Lose. It is still
	// remembered, at its last known position, until it is forgotten; news
	// of it finds it again.
	Lost bool
}

// Memory defaults.
const (
	DefaultHalfLife  = 5.0  // seconds for a memory's confidence to halve
	DefaultForget    = 0.05 // the confidence below which a thing is forgotten
	DefaultCapacity  = 64   // the most things a memory holds
	DefaultLoseAfter = 1.0  // seconds without news after which a thing is lost
)

// Memory is an agent's perception memory: the things it perceived, each with its last known position and time, whose confidence
// decays and which are forgotten once it falls below Forget. Things are
// kept in the order first perceived. Times are in seconds, on the clock of
// whoever owns the memory (for an agent, its Agent.Time).
// A Memory belongs to its agent: like the agent it is not safe for
// concurrent use (call it from the agent's body, sensors or host methods,
// or from the game between ticks).
type Memory struct {
	// HalfLife is how long, in seconds, a remembered thing's confidence
	// takes to halve. The default (zero) value, like a negative one, is
	// DefaultHalfLife (5 s); +Inf never decays.
	HalfLife float64
	// Forget is the confidence below which a thing is forgotten. The
	// default (zero) value is DefaultForget (0.05); a negative one forgets
	// nothing.
	Forget float64
	// Capacity is the most things the memory holds: a new thing
	// perceived when it is full takes the place of the one held with the
	// least confidence now (the first perceived among equals). The
	// default (zero) value, like a negative one, is DefaultCapacity (64).
	Capacity int
	// LoseAfter is how long, in seconds, a thing may go without news
	// before it is lost (Remembered.Lost): out of sight, or out of
	// hearing. The default (zero) value is DefaultLoseAfter (1 s); a
	// negative one loses nothing by time (only Lose does).
	LoseAfter float64
	// Notify, when true, makes the memory keep its changes (a thing
	// perceived, lost, forgotten) for TakeChanges. The reactive layer of
	// package engine/bdi turns it on for the domains whose plans react to
	// them; off, the memory keeps none.
	Notify  bool
	things  []Remembered
	changes []Change
}

// Spec is a role's perception memory settings: Memory's fields of the
// same names, whose zero values mean the defaults.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Spec struct {
	HalfLife  float64
	Forget    float64
	Capacity  int
	LoseAfter float64
	Notify    bool
}

func (m *Memory) halfLife() float64 {
	if !(m.HalfLife > 0) {
		return DefaultHalfLife
	}
	return m.HalfLife
}

func (m *Memory) forget() float64 {
	if m.Forget == 0 {
		return DefaultForget
	}
	return m.Forget
}

// confidence is r's confidence at time now.
func (m *Memory) confidence(r *Remembered, now float64) float64 {
	age := max(0, now-r.At)
	if h := m.halfLife(); !math.IsInf(h, 1) {
		return r.Strength * math.Exp2(-age/h)
	}
	return r.Strength
}

// Perceive remembers a stimulus at time now (seconds): a new thing, or
// news of one remembered, whose position, sense and time become the
// stimulus's and whose confidence becomes the stronger of the stimulus's
// strength and what the memory still held. A stimulus with no Source is
// ignored.
func (m *Memory) Perceive(s Stimulus, now float64) {
	if s.Source == "" {
		return
	}
	strength := s.Strength
	if strength == 0 || strength > 1 || math.IsNaN(strength) {
		strength = 1
	}
	strength = max(0, strength)
	m.update(now)
	for i := range m.things {
		r := &m.things[i]
		if r.Source == s.Source {
			r.Strength = max(strength, m.confidence(r, now))
			r.Sense, r.X, r.Y, r.At = s.Sense, s.X, s.Y, now
			if r.Lost {
				r.Lost = false
				m.note(Perceived, *r, now)
			}
			return
		}
	}
	if c := m.Cap(); len(m.things) >= c {
		weakest := 0
		for i := range m.things {
			if m.confidence(&m.things[i], now) < m.confidence(&m.things[weakest], now) {
				weakest = i
			}
		}
		m.note(Forgotten, m.things[weakest], now)
		m.things = slices.Delete(m.things, weakest, weakest+1)
	}
	m.things = append(m.things, Remembered{Source: s.Source, Sense: s.Sense, X: s.X, Y: s.Y, At: now, Strength: strength})
	m.note(Perceived, m.things[len(m.things)-1], now)
}

// Cap returns the most things the memory holds: Capacity, or
// DefaultCapacity when Capacity is zero or negative.
func (m *Memory) Cap() int {
	if m.Capacity <= 0 {
		return DefaultCapacity
	}
	return m.Capacity
}

// Recall returns what the memory holds of source at time now, with its
// Age and Confidence then, or false when it holds nothing (never
// perceived, or forgotten: a thing whose confidence has fallen below
// Forget is dropped here, as Update does).
func (m *Memory) Recall(source string, now float64) (Remembered, bool) {
	m.update(now)
	for _, r := range m.things {
		if r.Source == source {
			return m.at(r, now), true
		}
	}
	return Remembered{}, false
}

// Things returns everything the memory holds at time now, in the order
// first perceived, each with its Age and Confidence then; the things
// forgotten by then are dropped. The slice is new on every call.
func (m *Memory) Things(now float64) []Remembered {
	m.update(now)
	out := make([]Remembered, len(m.things))
	for i, r := range m.things {
		out[i] = m.at(r, now)
	}
	return out
}

// Drop forgets source at once (a Forgotten change) and reports whether
// the memory held it.
func (m *Memory) Drop(source string) bool {
	for i, r := range m.things {
		if r.Source == source {
			m.note(Forgotten, r, r.At)
			m.things = slices.Delete(m.things, i, i+1)
			return true
		}
	}
	return false
}

// Lose marks source lost at time now (a Lost change), as when the game
// knows that the agent's line of sight to it broke, and reports whether
// the memory holds it unlost. It stays remembered until it is forgotten.
func (m *Memory) Lose(source string, now float64) bool {
	m.update(now)
	for i := range m.things {
		if r := &m.things[i]; r.Source == source && !r.Lost {
			r.Lost = true
			m.note(Lost, *r, now)
			return true
		}
	}
	return false
}

// Update brings the memory to time now: the things without news for
// LoseAfter seconds are lost, and those whose confidence has fallen below
// Forget are forgotten, each a change for TakeChanges when Notify is on.
// Every read (Recall, Things, Field) does it too; an agent's tick does it
// on every think of an agent whose role reads its memory in conditions or
// reacts to its changes, so changes come on schedule.
func (m *Memory) Update(now float64) { m.update(now) }

func (m *Memory) at(r Remembered, now float64) Remembered {
	r.Age = max(0, now-r.At)
	r.Confidence = m.confidence(&r, now)
	return r
}

func (m *Memory) loseAfter() float64 {
	if m.LoseAfter == 0 {
		return DefaultLoseAfter
	}
	return m.LoseAfter
}

// update loses the things without news for LoseAfter seconds at now and
// forgets those whose confidence at now is below Forget, in the order
// first perceived (a thing both lost and forgotten is lost first).
func (m *Memory) update(now float64) {
	if len(m.things) == 0 {
		return
	}
	if l := m.loseAfter(); l >= 0 {
		for i := range m.things {
			// Less 1e-9, as the engine's waits and sensor periods: times
			// that add up ticks of 0.1 s land a hair short of a round sum.
			if r := &m.things[i]; !r.Lost && now-r.At >= l-1e-9 {
				r.Lost = true
				m.note(Lost, *r, now)
			}
		}
	}
	f := m.forget()
	if f < 0 {
		return
	}
	m.things = slices.DeleteFunc(m.things, func(r Remembered) bool {
		if m.confidence(&r, now) >= f {
			return false
		}
		m.note(Forgotten, r, now)
		return true
	})
}

// New returns an empty memory with the settings of s.
func New(s Spec) *Memory {
	return &Memory{HalfLife: s.HalfLife, Forget: s.Forget, Capacity: s.Capacity, LoseAfter: s.LoseAfter, Notify: s.Notify}
}

// Held returns the things the memory holds as they are stored (Age and
// Confidence zero; Strength and At as last perceived), without dropping
// any, in the order first perceived: what a snapshot saves. The slice is
// new on every call.
func (m *Memory) Held() []Remembered { return slices.Clone(m.things) }

// Hold replaces what the memory holds with things, as Held returned them:
// what a restore loads. It does not check them (a restore does).
func (m *Memory) Hold(things []Remembered) { m.things = slices.Clone(things) }

// Len returns how many things the memory holds now, the forgotten ones
// not yet dropped included.
func (m *Memory) Len() int { return len(m.things) }
