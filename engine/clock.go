package engine

import "math"

// clock keeps game time exactly: the time is the start of the current run
// of equal dt plus the number of ticks in it times dt, computed as ticks
// divided by the tick rate when dt is 1/n of a second (1/60, 0.1), so 50
// ticks of 0.1 s read 5, not the 4.999999999999998 that summing gives. A
// change of dt starts a new run from the time reached.
type clock struct {
	base float64 // the time when the current run of equal dt began
	dt   float64
	rate float64 // 1/dt when that is a whole number, else 0
	n    int     // ticks in the current run
}

// advance moves the clock on by one tick of dt seconds and returns the new
// time.
func (c *clock) advance(dt float64) float64 {
	if dt != c.dt {
		c.restart(dt)
	}
	return c.next()
}

// next is advance for a tick of the clock's own dt (c.dt): small enough
// to inline, for the agents' ticks.
func (c *clock) next() float64 {
	c.n++
	// now, without its test for n == 0: n counts up from 0, so it is at
	// least 1 here.
	if c.rate > 0 {
		return c.base + float64(c.n)/c.rate
	}
	return c.base + float64(c.n)*c.dt
}

// restart begins a new run of ticks of dt seconds from the time reached.
func (c *clock) restart(dt float64) {
	c.base, c.dt, c.n = c.now(), dt, 0
	c.rate = 0
	if r := math.Round(1 / dt); r >= 1 && r < 1e9 && math.Abs(r*dt-1) < 1e-12 {
		c.rate = r
	}
}

func (c *clock) now() float64 {
	if c.n == 0 {
		return c.base
	}
	if c.rate > 0 {
		return c.base + float64(c.n)/c.rate
	}
	return c.base + float64(c.n)*c.dt
}

// last returns the time at the start of the latest tick of the current
// run (the time its records carry), or ok false when the run has no tick
// yet (the clock was just set or restarted).
func (c *clock) last() (t float64, ok bool) {
	if c.n == 0 {
		return 0, false
	}
	if c.rate > 0 {
		return c.base + float64(c.n-1)/c.rate, true
	}
	return c.base + float64(c.n-1)*c.dt, true
}
