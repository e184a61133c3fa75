package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSensorDtIsTheTimeSinceItsLastRun(t *testing.T) {
	tests := []struct {
		name, reason string
		every        float64
		step         float64 // the dt of every run after the first
		sum          float64 // after 30 ticks of 0.1 s
	}{
		{name: "every tick", reason: "each run sees one tick; 3 s of play read 3 s (it read 5.9)",
			every: 0, step: 0.1, sum: 3},
		{name: "every 0.2 s", reason: "the first run sees its tick, the others 0.2 s: at t = 0, 0.2, ..., 2.8, up to t = 2.9",
			every: 0.2, step: 0.2, sum: 2.9},
		{name: "every 0.25 s", reason: "runs at t = 0, 0.3, 0.6, ...: 0.3 s apart, the ticks it waited",
			every: 0.25, step: 0.3, sum: 2.8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var dts []float64
			d, err := Compile(RoleSpec{Name: "R",
				Sensors: []SensorSpec{{Name: "clock", Every: tc.every, Run: func(_ *Agent, dt float64) error {
					dts = append(dts, dt)
					return nil
				}}}})
			require.NoError(t, err)
			w := NewWorld(1)
			w.Add(NewAgent("npc", d))
			for i := 0; i < 30; i++ {
				w.Tick(0.1)
			}
			sum := 0.0
			for _, dt := range dts {
				sum += dt
			}
			assert.InDelta(t, tc.sum, sum, 1e-9, tc.reason)
			require.NotEmpty(t, dts)
			assert.InDelta(t, 0.1, dts[0], 1e-12, "the first run sees the tick's dt")
			for _, dt := range dts[1:] {
				assert.InDelta(t, tc.step, dt, 1e-9, tc.reason)
			}
		})
	}
}
