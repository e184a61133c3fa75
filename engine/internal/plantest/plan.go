package plantest

import (
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
)

// Outcome is what planning gives, for comparing two searches: the plan's
// step names and cost, the expansions of every search, and for no plan
// the goal that had none and the search core's Failure.
type Outcome struct {
	Steps      []string
	Cost       float64
	Expansions int
	Goal       string
	Failure    *goap.Failure
}

// Plan plans goals in order from start as engine.Planner.Plan plans
// them with chaining: a goal that holds is passed over, each other goal's
// plan is applied to the state the next goal starts from, and the first
// goal without a plan ends the call with the Failure the search core
// explains (a goal with no candidate action is Unreachable without a
// search). With a Slice on p it returns ok false when a search paused
// (call again, as a plan job does on the next tick).
func Plan(p *goap.Searcher, goals []*goap.Goal, start goap.State, maxDepth int) (out Outcome, ok bool) {
	sim := start.Clone()
	pr := p.Problem()
	names := make([]string, len(pr.Actions))
	for i := range pr.Actions {
		names[i] = pr.Actions[i].Name
	}
	for _, g := range goals {
		// The planner's order: the cached analysis, else a new one.
		gs := p.Cached(g.Index)
		if gs == nil {
			gs = p.GoalSearch(g)
		}
		if gs.Goal() != g {
			panic("plantest: the analysis is of another goal")
		}
		if gs.Satisfied(sim) {
			continue
		}
		if len(gs.Direct()) == 0 {
			out.Goal, out.Failure = g.Name, &goap.Failure{Reason: goap.Unreachable}
			return out, true
		}
		if sl := p.Slice; sl != nil {
			sl.BeginChain()
		}
		end, res, cut, exp := p.Search(gs, sim, maxDepth)
		out.Expansions += exp
		if res == goap.Paused {
			return out, false
		}
		if res != goap.Found {
			f := p.Explain(gs, sim, maxDepth, res, cut, exp)
			if p.Suspended() {
				return out, false
			}
			if sl := p.Slice; sl != nil {
				sl.EndChain()
			}
			out.Goal, out.Failure = g.Name, f
			return out, true
		}
		if sl := p.Slice; sl != nil {
			sl.EndChain()
		}
		at := len(out.Steps)
		out.Steps = goap.AppendPath(p, end, out.Steps, names)
		if n := p.EndDepth(end); n != len(out.Steps)-at {
			panic("plantest: EndDepth differs from the path's length")
		}
		if !p.Suspended() && p.Slice == nil {
			// PathTo gives the same steps, last first.
			path := p.PathTo(end, nil)
			for k, i := range path {
				if names[i] != out.Steps[len(out.Steps)-1-k] {
					panic("plantest: PathTo differs from AppendPath")
				}
			}
		}
		out.Cost += p.Cost(end)
		p.StoreEnd(end, sim)
	}
	return out, true
}

// PlanSliced is Plan under a Slice of budget expansions per call, called
// again while a search is suspended, at most 100,000 times (ok false
// past that). calls is the number of calls it took.
func PlanSliced(p *goap.Searcher, goals []*goap.Goal, start goap.State, maxDepth, budget int) (out Outcome, calls int, ok bool) {
	sl := &goap.Slice{}
	p.Slice = sl
	defer func() { p.Slice = nil }()
	for calls = 1; calls <= 100000; calls++ {
		sl.SetLeft(budget)
		if out, ok := Plan(p, goals, start, maxDepth); ok {
			return out, calls, true
		}
	}
	return Outcome{}, calls, false
}
