package engine

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine/record"
)

// considerationsOf scores act once more with its rows, for the pick
// record. A NaN input (an input consideration whose variable is no
// number) is recorded as 0 and an infinite one as ±math.MaxFloat64 (which
// the consideration scores alike: past its range), so the record is valid
// JSON. The list is new when the record may be kept (recordsKept), else
// the agent's scratch.
func (a *Agent) considerationsOf(act *Action) []record.ConsiderationScore {
	u := a.utility
	u.rows = u.rows[:0]
	u.score(act, a.State, true)
	var out []record.ConsiderationScore
	if a.recordsKept() {
		out = make([]record.ConsiderationScore, len(u.rows))
	} else {
		if out = a.rec.cons; cap(out) < len(u.rows) {
			out = make([]record.ConsiderationScore, len(u.rows))
		}
		out = out[:len(u.rows)]
		a.rec.cons = out
	}
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
		out[i] = record.ConsiderationScore{Name: r.Name, Input: in, Output: r.Output, Weight: r.Weight}
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
