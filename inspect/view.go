package inspect

import (
	"math"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// AgentRow is one agent in the population view and in api/agents.
type AgentRow struct {
	World string `json:"world"`
	Name  string `json:"name"`
	// Role is the agent's roles, joined with "+".
	Role string `json:"role"`
	// Goal is the goal its GOAP plan serves ("" without one); Action the
	// running action ("" when idle).
	Goal   string `json:"goal"`
	Action string `json:"action"`
	// Decision says what chose what the agent does now: "goap" (a plan
	// for Goal), "utility" (a utility pick), "reactive" (an intention of
	// its plan library runs), "llm" (a body waits for a language model's
	// plan) or "" (nothing).
	Decision string `json:"decision"`
	// Failures counts the actions that failed (each one was backed off
	// for the agent's retry delay); Replans the plans dropped.
	Failures int  `json:"failures"`
	Replans  int  `json:"replans"`
	Stuck    bool `json:"stuck"`
	Ticks    int  `json:"ticks"`
}

func decision(a *engine.Agent) string {
	if r := a.Recorder; r.Count(record.EventLLMRequest) > r.Count(record.EventLLMAnswer) {
		return "llm"
	}
	switch a.DecidedBy() {
	case "goal":
		return "goap"
	case "pick":
		return "utility"
	}
	if m := bdi.Of(a); m != nil && m.Busy() {
		return "reactive"
	}
	return ""
}

func rowOf(world string, a *engine.Agent) AgentRow {
	r := AgentRow{World: world, Name: a.Name, Role: a.Domain.Name, Decision: decision(a),
		Failures: a.Recorder.Count(record.EventFail), Replans: a.Recorder.Count(record.EventReplan),
		Stuck: a.Stuck(), Ticks: a.Ticks()}
	if g := a.CurrentGoal(); g != nil && r.Decision == "goap" {
		r.Goal = g.Name
	}
	if act := a.Running(); act != nil {
		r.Action = act.Name
	}
	return r
}

// AgentView is one agent's mind, as the agent view shows it and
// api/worlds/{world}/agents/{name} returns it.
type AgentView struct {
	AgentRow
	// Decide is the role's way of deciding: "goap", "utility" or "hybrid".
	Decide string  `json:"decide"`
	Time   float64 `json:"time"`
	// GoalPriority is Goal's priority ("high"), "" without a goal.
	GoalPriority string `json:"goalPriority,omitempty"`
	// State is every state variable, in the schema's order; Changed marks
	// the ones whose value differs from the previous tick's.
	State []Var `json:"state"`
	// Goals are the role's goals, highest priority first.
	Goals []GoalRow `json:"goals"`
	// Plan is the remaining steps, the running one first, and PlanCost
	// their total cost.
	Plan     []Step  `json:"plan"`
	PlanCost float64 `json:"planCost"`
	// Utility is the utility planner's ranking in the agent's state now
	// (nil for a role that decides by goals alone).
	Utility *Utility `json:"utility,omitempty"`
	// Intentions are the reactive layer's running intentions.
	Intentions []Intention `json:"intentions"`
	// Actions are the role's action names, for why-not.
	Actions []string `json:"actions"`
	// Records are the flight recorder's latest records, oldest first.
	Records []Record `json:"records"`
}

// Var is one state variable: its value written as a literal, its kind,
// and whether it changed since the previous tick.
type Var struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Kind    string `json:"kind"`
	Changed bool   `json:"changed,omitempty"`
}

// GoalRow is one goal of the role.
type GoalRow struct {
	Name      string `json:"name"`
	Priority  string `json:"priority"`
	Condition string `json:"condition"`
	Satisfied bool   `json:"satisfied"`
	Current   bool   `json:"current,omitempty"`
}

// Step is one step of the plan.
type Step struct {
	Action  string  `json:"action"`
	Cost    float64 `json:"cost"`
	Pre     string  `json:"pre,omitempty"`
	Effects string  `json:"effects,omitempty"`
	Running bool    `json:"running,omitempty"`
}

// Utility is the utility ranking: every applicable action with its score
// and considerations, best first, and the actions whose precondition
// keeps them out.
type Utility struct {
	Mode       string       `json:"mode"`
	Commitment float64      `json:"commitment"`
	Pick       string       `json:"pick"`
	Kept       bool         `json:"kept,omitempty"`
	Actions    []ScoredRow  `json:"actions"`
	Blocked    []BlockedRow `json:"blocked"`
	Error      string       `json:"error,omitempty"`
}

// ScoredRow is one scored action.
type ScoredRow struct {
	Action         string          `json:"action"`
	Score          float64         `json:"score"`
	Considerations []Consideration `json:"considerations"`
}

// Consideration is one consideration's part in a score: the raw input,
// the output after its curve, its weight, and the curve sampled at 21
// points from 0 to 1 with the current input (normalised) marked.
type Consideration struct {
	Name   string     `json:"name"`
	Kind   string     `json:"kind"`
	Input  JSONNumber `json:"input"`
	Output float64    `json:"output"`
	Weight float64    `json:"weight"`
	Error  string     `json:"error,omitempty"`
	Curve  *CurvePlot `json:"curve,omitempty"`
}

// CurvePlot is a response curve sampled for a plot.
type CurvePlot struct {
	Kind string `json:"kind"`
	// Y are the curve's outputs at x = 0, 0.05, ..., 1.
	Y []float64 `json:"y"`
	// X is the current input normalised to [0, 1] (where the plot marks
	// it), or null when the input is not a state variable's.
	X *float64 `json:"x"`
}

// JSONNumber is a float64 that encodes NaN and infinities as null
// (a missing or non-numeric input).
type JSONNumber float64

// MarshalJSON writes the number, or null for NaN and infinities.
func (n JSONNumber) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// BlockedRow is an action left out of the ranking and the precondition
// that keeps it out.
type BlockedRow struct {
	Action string `json:"action"`
	Pre    string `json:"pre"`
}

// Intention is one running intention of the reactive layer.
type Intention struct {
	ID      int    `json:"id"`
	Plan    string `json:"plan"`
	Event   string `json:"event"`
	Waiting string `json:"waiting"`
	Depth   int    `json:"depth"`
}

// Record is one flight-recorder record with its sequence number: the
// agent's records are numbered from 1 in the order it made them.
type Record struct {
	Seq int `json:"seq"`
	record.Event
}

// records returns a's records with a sequence number above since, oldest
// first, and the sequence number of its latest record.
func records(a *engine.Agent, since int) ([]Record, int) {
	all := a.Recorder.Records()
	total := 0
	for k := 0; k < 256; k++ {
		total += a.Recorder.Count(record.EventKind(k))
	}
	if total < len(all) {
		total = len(all)
	}
	first := total - len(all) + 1
	out := []Record{}
	for k, e := range all {
		if seq := first + k; seq > since {
			out = append(out, Record{Seq: seq, Event: e})
		}
	}
	return out, total
}

// view builds the agent view of ag in world a; it runs between ticks.
func (a *attached) view(ag *engine.Agent) *AgentView {
	d := ag.Domain
	v := &AgentView{AgentRow: rowOf(a.name, ag), Decide: d.Decide, Time: ag.Time(), Actions: d.ActionNames()}
	if v.Decide == "" {
		v.Decide = "goap"
	}
	if g := ag.CurrentGoal(); g != nil && v.Decision == "goap" {
		v.GoalPriority = g.Priority.String()
	}
	// A variable changed when it differs from the end of the previous
	// tick, or from the end of this one (set between ticks).
	var prev, now []string
	if w := a.watch[ag.Name]; w != nil && w.agent == ag {
		prev, now = w.previous(ag.Ticks()), w.current(ag.Ticks())
	}
	differs := func(st []string, slot int, text string) bool { return slot < len(st) && st[slot] != text }
	for slot, val := range ag.State {
		text := val.String()
		v.State = append(v.State, Var{Name: d.Schema.Name(slot), Value: text, Kind: val.Kind().String(),
			Changed: differs(prev, slot, text) || differs(now, slot, text)})
	}
	cur := ag.CurrentGoal()
	for _, g := range d.ByPrio {
		v.Goals = append(v.Goals, GoalRow{Name: g.Name, Priority: g.Priority.String(), Condition: g.Condition.Source(),
			Satisfied: g.Satisfied(ag.State), Current: g == cur && v.Decision == "goap"})
	}
	for k, act := range ag.CurrentPlan() {
		v.Plan = append(v.Plan, Step{Action: act.Name, Cost: act.Cost, Pre: act.Pre.Source(),
			Effects: act.Effects.Source(), Running: k == 0 && ag.Running() == act})
		v.PlanCost += act.Cost
	}
	if d.Decide != "goap" && d.Decide != "" {
		v.Utility = a.utility(ag)
	}
	if m := bdi.Of(ag); m != nil {
		for _, in := range m.Intentions() {
			p, _ := in.Plan()
			row := Intention{ID: in.ID, Event: eventText(in.Event()), Waiting: in.Waiting(), Depth: in.Depth()}
			if p != nil {
				row.Plan = planName(p)
			}
			v.Intentions = append(v.Intentions, row)
		}
	}
	v.Records, _ = records(ag, 0)
	return v
}

// eventText is an intention's event as the page shows it: "goal_added
// guard", "belief_added alert = true".
func eventText(ev bdi.Event) string {
	if ev.Name != "" {
		return ev.Kind.String() + " " + ev.Name + " = " + ev.Value.String()
	}
	return ev.Kind.String() + " " + ev.Goal.String()
}

func planName(p *bdi.Plan) string {
	if p.Name != "" {
		return p.Name
	}
	return strings.TrimSpace(p.On.String() + " " + p.Goal + p.Belief)
}

// utility ranks ag's actions with the inspector's own utility planner, so
// the agent's own is left as it is.
func (a *attached) utility(ag *engine.Agent) *Utility {
	d := ag.Domain
	u := a.explain[d]
	if u == nil {
		u = engine.NewUtilityPlanner(d)
		u.Explain = true
		if mine := ag.Utility(); mine != nil {
			u.Mode, u.Clamp = mine.Mode, mine.Clamp
		}
		a.explain[d] = u
	}
	if mine := ag.Utility(); mine != nil {
		u.Considerations = mine.Considerations
	}
	u.Commitment = ag.Commitment
	pick, e := u.Pick(ag.State, ag.Running())
	out := &Utility{Commitment: ag.Commitment, Actions: []ScoredRow{}, Blocked: []BlockedRow{}}
	if out.Commitment == 0 {
		out.Commitment = engine.DefaultCommitment
	}
	if e == nil {
		return out
	}
	out.Mode, out.Kept = e.Mode, e.Kept
	if pick != nil {
		out.Pick = pick.Name
	}
	if _, err := u.LastError(); err != nil {
		out.Error = err.Error()
	}
	scored := map[*engine.Action]bool{}
	for _, ax := range e.Actions {
		scored[ax.Action] = true
		row := ScoredRow{Action: ax.Action.Name, Score: ax.Score}
		specs := ax.Action.Considerations
		if specs == nil {
			specs = u.Considerations
			if specs == nil {
				specs = d.Considerations
			}
			if specs == nil {
				specs = engine.DefaultConsiderations()
			}
		}
		used := 0
		for _, c := range ax.Considerations {
			cv := Consideration{Name: c.Name, Input: JSONNumber(c.Input), Output: c.Output, Weight: c.Weight}
			if c.Err != nil {
				cv.Error = c.Err.Error()
			}
			// The explanation lists the considerations with a weight
			// above 0 in their declared order: find the one it is.
			for used < len(specs) && !(specs[used].Weight > 0 && specs[used].Name == c.Name) {
				used++
			}
			if used < len(specs) {
				spec := specs[used]
				used++
				cv.Kind = string(spec.Kind)
				cv.Curve = plot(spec, c.Input)
			}
			row.Considerations = append(row.Considerations, cv)
		}
		out.Actions = append(out.Actions, row)
	}
	for _, act := range d.Actions {
		if !scored[act] {
			out.Blocked = append(out.Blocked, BlockedRow{Action: act.Name, Pre: act.Pre.Source()})
		}
	}
	return out
}

// plot samples c's response curve; an input consideration without a curve
// is the linear identity. Other considerations without a curve have none
// to plot.
func plot(c engine.Consideration, input float64) *CurvePlot {
	cv := c.Curve
	if cv == nil {
		if c.Kind != engine.ConsiderInput {
			return nil
		}
		cv = &curve.Curve{}
	}
	p := &CurvePlot{Kind: string(cv.Kind), Y: make([]float64, 21)}
	if p.Kind == "" {
		p.Kind = string(curve.Linear)
	}
	for k := range p.Y {
		p.Y[k] = cv.Eval(float64(k) / 20)
	}
	if c.Kind == engine.ConsiderInput && c.Max != c.Min && !math.IsNaN(input) {
		x := min(max((input-c.Min)/(c.Max-c.Min), 0), 1)
		p.X = &x
	}
	return p
}
