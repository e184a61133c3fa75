package engine

import "math/rand/v2"

// World is the agents of a game and a clock. Tick is the one call a game
// makes each frame. Not safe for concurrent use.
type World struct {
	Agents []*Agent
	Time   float64 // seconds since the world started
	Ticks  int     // ticks run so far
	Seed   uint64
	// Rand is the world's random source, seeded from Seed; scripts and the
	// embedding game draw from it so a run is reproducible.
	Rand *rand.Rand
	// OnEvent receives every agent's decisions, in tick order.
	OnEvent func(Event)
}

// NewWorld returns an empty world with the given seed.
func NewWorld(seed uint64) *World {
	return &World{Seed: seed, Rand: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Add adds an agent; agents tick in the order they were added.
func (w *World) Add(a *Agent) {
	a.OnEvent = func(e Event) {
		if w.OnEvent != nil {
			w.OnEvent(e)
		}
	}
	w.Agents = append(w.Agents, a)
}

// Tick advances every agent by dt seconds, in order, then the clock.
func (w *World) Tick(dt float64) {
	for _, a := range w.Agents {
		a.Tick(dt)
	}
	w.Ticks++
	w.Time += dt
}
