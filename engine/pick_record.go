package engine

import "math"

// ConsiderationScore is one consideration of a utility pick record: its
// name, the input it read, its output and its weight (see Consideration).
// Error is the message of a custom function's error, which scored 0.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type ConsiderationScore struct {
	Name   string  `json:"name"`
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	Weight float64 `json:"weight"`
	Error  string  `json:"error,omitempty"`
}

// considerationsOf scores act once more with its rows, for the pick
// record. A NaN input (an input consideration whose variable is no
// number) is recorded as 0 and an infinite one as ±math.MaxFloat64 (which
// the consideration scores alike: past its range), so the record is valid
// JSON.
func (a *Agent) considerationsOf(act *Action) []ConsiderationScore {
	u := a.utility
	u.rows = u.rows[:0]
	u.score(act, a.State, true)
	out := make([]ConsiderationScore, len(u.rows))
	for i, r := range u.rows {
		in := r.Input
		switch {
		case in != in:
			in = 0
		case math.IsInf(in, 1):
			in = math.MaxFloat64
		case math.IsInf(in, -1):
			in = -math.MaxFloat64
		}
		out[i] = ConsiderationScore{Name: r.Name, Input: in, Output: r.Output, Weight: r.Weight}
		if r.Err != nil {
			out[i].Error = r.Err.Error()
		}
	}
	u.rows = u.rows[:0]
	return out
}

// DecidedBy says which planner chose what the agent is doing now: "goal"
// (a GOAP plan for CurrentGoal, as the plan record says), "pick" (a utility
// pick, as the pick record says), or "" (no plan). An overlay that shows
// it agrees with the trace.
func (a *Agent) DecidedBy() string {
	switch {
	case a.step >= len(a.plan) && a.task == nil:
		return ""
	case a.picked:
		return "pick"
	case a.goal != nil:
		return "goal"
	}
	return ""
}
