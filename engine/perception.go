package engine

import "github.com/moonmind-ai/moonmind/engine/perception"

// Memory returns the agent's perception memory, made on first use with
// its domain's settings (Domain.Memory).
func (a *Agent) Memory() *perception.Memory {
	if a.mem == nil {
		a.mem = perception.New(a.Domain.Memory)
	}
	return a.mem
}

// Perceive adds a stimulus to the agent's memory at the agent's time
// (Agent.Time: the time its current tick began, or between ticks the time
// its last one reached). See perception.Memory.Perceive.
func (a *Agent) Perceive(s perception.Stimulus) { a.Memory().Perceive(s, a.time) }
