package inspect

import (
	"slices"

	"github.com/moonmind-ai/moonmind/engine/record"
)

// trace is a world rebuilt from a trace's records: each agent's records,
// and one frame per tick with a record, for time travel. Its state is
// what the records say of it: the beliefs the reactive layer recorded.
type trace struct {
	agents   []*traceAgent
	byName   map[string]*traceAgent
	lastTick int
	lastTime float64
}

type traceAgent struct {
	name     string
	records  []Record
	names    []string // state variables, in order of first record
	frames   []Frame
	row      AgentRow
	lastPick *record.Event
	plan     []string
	cost     float64
}

func newTrace(records []record.Event) *trace {
	t := &trace{byName: map[string]*traceAgent{}}
	for _, e := range records {
		ta := t.byName[e.Agent]
		if ta == nil {
			ta = &traceAgent{name: e.Agent}
			t.byName[e.Agent] = ta
			t.agents = append(t.agents, ta)
		}
		ta.add(e)
		if e.Tick > t.lastTick {
			t.lastTick = e.Tick
		}
		t.lastTime = max(t.lastTime, e.Time)
	}
	return t
}

// add applies one record to the agent's story and makes or updates the
// frame of its tick.
func (ta *traceAgent) add(e record.Event) {
	ta.records = append(ta.records, Record{Seq: len(ta.records) + 1, Event: e})
	var prev Frame
	if n := len(ta.frames); n > 0 {
		prev = ta.frames[n-1]
	}
	f := prev
	f.Tick, f.Time = e.Tick, e.Time
	f.State = append([]string{}, prev.State...)
	switch e.Kind {
	case record.EventPlan:
		f.Goal, f.Decision, f.Plan = e.Goal, "goap", e.Plan
		ta.plan, ta.cost = e.Plan, e.Cost
	case record.EventPick:
		f.Decision, f.Plan = "utility", []string{e.Action}
		f.Goal = ""
		ev := e
		ta.lastPick = &ev
		ta.plan, ta.cost = []string{e.Action}, 0
	case record.EventStart:
		f.Action = e.Action
	case record.EventFinish, record.EventFail, record.EventInterrupt:
		f.Action = ""
		if len(f.Plan) > 0 && f.Plan[0] == e.Action {
			f.Plan = f.Plan[1:]
		}
		if e.Kind == record.EventFail {
			ta.row.Failures++
		}
	case record.EventReplan:
		f.Plan, f.Goal = nil, ""
		ta.row.Replans++
	case record.EventIdle:
		f.Plan, f.Goal, f.Decision = nil, "", ""
	case record.EventStuck:
		ta.row.Stuck = true
	case record.EventRecovered:
		ta.row.Stuck = false
	}
	if e.Belief != "" && (e.Kind == record.EventBeliefAdded || e.Kind == record.EventBeliefRemoved) {
		k := slices.Index(ta.names, e.Belief)
		if k < 0 {
			ta.names = append(ta.names, e.Belief)
			k = len(ta.names) - 1
		}
		for len(f.State) < len(ta.names) {
			f.State = append(f.State, "")
		}
		f.State[k] = e.Value
		if f.Decision == "" {
			f.Decision = "reactive"
		}
	}
	if n := len(ta.frames); n > 0 && ta.frames[n-1].Tick == e.Tick {
		ta.frames[n-1] = f
	} else {
		ta.frames = append(ta.frames, f)
	}
	ta.row.Goal, ta.row.Action, ta.row.Decision, ta.row.Ticks = f.Goal, f.Action, f.Decision, f.Tick
}

func (ta *traceAgent) rowIn(world string) AgentRow {
	r := ta.row
	r.World, r.Name, r.Role = world, ta.name, ""
	return r
}

// view is what a trace says of the agent at its last record.
func (ta *traceAgent) view(world string) *AgentView {
	v := &AgentView{AgentRow: ta.rowIn(world), Decide: "", Records: ta.records,
		Goals: []GoalRow{}, Actions: []string{}, Intentions: []Intention{}}
	last := ta.frames[len(ta.frames)-1]
	v.Time = last.Time
	for k, name := range ta.names {
		val := ""
		if k < len(last.State) {
			val = last.State[k]
		}
		v.State = append(v.State, Var{Name: name, Value: val})
	}
	for k, s := range last.Plan {
		v.Plan = append(v.Plan, Step{Action: s, Running: k == 0 && s == last.Action})
	}
	v.PlanCost = ta.cost
	if p := ta.lastPick; p != nil {
		u := &Utility{Pick: p.Action, Actions: []ScoredRow{}, Blocked: []BlockedRow{}}
		for _, s := range p.Scores {
			row := ScoredRow{Action: s.Action, Score: s.Score}
			if s.Action == p.Action {
				for _, c := range p.Considerations {
					row.Considerations = append(row.Considerations, Consideration{Name: c.Name, Input: JSONNumber(c.Input),
						Output: c.Output, Weight: c.Weight, Error: c.Error})
				}
			}
			u.Actions = append(u.Actions, row)
		}
		v.Utility = u
	}
	return v
}

func (ta *traceAgent) history() *History {
	return &History{Names: ta.names, Frames: ta.frames, Records: ta.records}
}
