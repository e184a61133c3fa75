package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheClockCountsTicksExactly: the clock's time is the start of the
// current run of equal dt plus its ticks times dt, divided by the tick
// rate when dt is within 1e-12 of 1/n of a second; last is the start of
// the latest tick of the run.
func TestTheClockCountsTicksExactly(t *testing.T) {
	tests := []struct {
		name, reason string
		dts          []float64
		now, last    float64
		lastOK       bool
	}{
		{name: "tenths", reason: "50 ticks of 0.1 s read 5 s, not the sum's 4.999999999999998",
			dts: repeat(0.1, 50), now: 5, last: 4.9, lastOK: true},
		{name: "three tenths", reason: "3 ticks of 0.1 s read 0.3 s, not 3 × 0.1 = 0.30000000000000004",
			dts: repeat(0.1, 3), now: 0.3, last: 0.2, lastOK: true},
		{name: "one second, nearly", reason: "1 + 1e-13 s is within 1e-12 of 1 s: a tick rate of 1",
			dts: repeat(1+1e-13, 3), now: 3, last: 2, lastOK: true},
		{name: "thirds of a tenth", reason: "0.3 s is no 1/n of a second: ticks times dt",
			dts: repeat(0.3, 3), now: times(3, 0.3), last: times(2, 0.3), lastOK: true},
		{name: "a nanosecond", reason: "a rate of 1e9 ticks a second is past the rates kept: ticks times dt",
			dts: repeat(1e-9, 3), now: times(3, 1e-9), last: times(2, 1e-9), lastOK: true},
		{name: "a change of dt", reason: "two ticks of 0.5 s, then a run of 0.25 s from 1 s",
			dts: []float64{0.5, 0.5, 0.25, 0.25}, now: 1.5, last: 1.25, lastOK: true},
		{name: "a change of dt, one tick", reason: "the new run's first tick began at the time reached",
			dts: []float64{0.5, 0.5, 0.25}, now: 1.25, last: 1, lastOK: true},
		{name: "slower", reason: "two ticks of 0.1 s, then 0.3 s: no rate",
			dts: []float64{0.1, 0.1, 0.3, 0.3}, now: 0.2 + times(2, 0.3), last: 0.2 + times(1, 0.3), lastOK: true},
		{name: "no tick", reason: "a new clock stands at 0 with no tick"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c clock
			var got float64
			for _, dt := range tt.dts {
				got = c.advance(dt)
			}
			assert.Equal(t, tt.now, got, tt.reason)
			assert.Equal(t, tt.now, c.now(), tt.reason)
			last, ok := c.last()
			assert.Equal(t, tt.lastOK, ok, tt.reason)
			assert.Equal(t, tt.last, last, tt.reason)
		})
	}
}

// TestNextIsAdvanceForTheClocksOwnDt: next moves the clock as advance
// does for a tick of the clock's dt, with or without a tick rate.
func TestNextIsAdvanceForTheClocksOwnDt(t *testing.T) {
	for _, dt := range []float64{0.1, 0.3} {
		var c, d clock
		c.advance(dt)
		d.advance(dt)
		for range 7 {
			require.Equal(t, d.advance(dt), c.next(), "dt %v", dt)
		}
		assert.Equal(t, 8*dt, c.now()-0, "dt %v: 8 ticks", dt) // exact for both: 8 is a power of two
	}
}

// times is n*dt in float64 arithmetic, as the clock computes it (a
// constant expression would be exact).
func times(n int, dt float64) float64 { return float64(n) * dt }
