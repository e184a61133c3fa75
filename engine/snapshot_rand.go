package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

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
