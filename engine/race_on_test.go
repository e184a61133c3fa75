//go:build race

package engine

// raceEnabled: under the race detector sync.Pool drops what it is given
// at random, so the planner's pooled buffers are allocated again and
// allocation counts of ticks that plan do not hold.
const raceEnabled = true
