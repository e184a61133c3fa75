package engine

import "github.com/moonmind-ai/moonmind/engine/internal/goap"

// searchGoal returns the search core's analysis of g for p's domain, as
// a Plan of g would use it.
func (p *Planner) searchGoal(g *Goal) *goap.GoalSearch {
	p.prepareSearch()
	return p.s.GoalSearch(p.goalOf(g))
}
