package engine

// SensorSpec declares a sensor: a function that reads the game (or the
// agent) and writes state variables, run by the agent's tick at a rate.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type SensorSpec struct {
	Name string
	// Every is the period in seconds: the sensor runs on an agent's first
	// tick and then once at least Every seconds have passed since its last
	// run. The default (zero) value, and a negative one, mean every tick.
	Every float64
	// Run writes state through agent.Set. dt is the game time in seconds
	// since this sensor's previous run (on its first run, the tick's dt),
	// so a sensor that sums its dt reads the time played. An error is recorded as an
	// record.EventSensorFailed and the tick goes on; the sensor runs again at its
	// next period.
	Run func(agent *Agent, dt float64) error
	Pos Pos
}

// Sensor is a compiled sensor of a Domain.
// It is part of a compiled Domain and read-only after Compile: safe to share
// between goroutines and agents.
type Sensor struct {
	Name  string
	Index int
	Every float64
	Run   func(agent *Agent, dt float64) error
	Pos   Pos
}

// ConditionSpec declares a named condition: a side-effect-free predicate over the game that conditions
// and goals use by name, as a boolean state variable. The agent evaluates
// every named condition on the real state before it decides and before a
// step starts; planning treats the value as fixed unless an effect assigns
// it, so the planners never call back into scripts.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ConditionSpec struct {
	Name string
	Test func(agent *Agent) (bool, error)
	Pos  Pos
}

// NamedCondition is a compiled named condition: Slot is its boolean state
// variable.
// It is part of a compiled Domain and read-only after Compile: safe to share
// between goroutines and agents.
type NamedCondition struct {
	Name string
	Slot int
	Test func(agent *Agent) (bool, error)
	Pos  Pos
}
