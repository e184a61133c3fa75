// Package record holds an agent's flight recorder and the records it
// keeps: what the planners, the reactive layer and the scripts decided,
// one Event per decision (a plan, a pick, an action's start, finish,
// failure or interruption, a belief, an intention, a print).
//
// An engine.Agent writes its records into its Recorder, a bounded ring
// that keeps the latest ones encoded in a few bytes each, and hands each
// one to Agent.OnEvent and World.OnEvent as it is made. Events print as
// one line (Event.String, the text trace of `moonmind run`) or as JSON
// (WriteJSONLines), and read back (EventKind.UnmarshalText), so a
// recorded run can be compared or replayed.
//
// The package depends only on engine/expr; it knows nothing of agents or
// planners.
package record
