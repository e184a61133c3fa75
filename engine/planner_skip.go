package engine

import (
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/internal/goap"
)

// prepareSkip builds the search core's Skip, the actions the search leaves out: those
// Exclude marks and those the Policy forbids. It stays nil when nothing
// is left out, the common case, so the search pays one nil check.
func (p *Planner) prepareSkip() {
	p.s.Skip = nil
	if p.exclude == nil && p.Policy == nil {
		return
	}
	acts := p.Domain.Actions
	for i, a := range acts {
		out := p.exclude != nil && i < len(p.exclude) && p.exclude[i]
		if !out && p.Policy != nil && a.Secured() {
			out = !p.Policy.Permits(a)
		}
		if !out {
			continue
		}
		if p.s.Skip == nil {
			if cap(p.skipBuf) < len(acts) {
				p.skipBuf = make([]bool, len(acts))
			}
			p.s.Skip = p.skipBuf[:len(acts)]
			clear(p.s.Skip)
		}
		p.s.Skip[i] = true
	}
}

// forbidden reports whether the Policy forbids action index i.
func (p *Planner) forbidden(i int32) bool {
	return p.Policy != nil && !p.Policy.Permits(p.Domain.Actions[i])
}

// excluded reports whether Exclude marks action index i.
func (p *Planner) excluded(i int32) bool {
	return p.exclude != nil && int(i) < len(p.exclude) && p.exclude[i]
}

// blameLeftOut finds the true cause of a failure when actions were left
// out: it searches again leaving out only what the Policy forbids (a plan
// then means a backed-off action was in the way), then leaving out
// nothing (a plan then means a forbidden action was). It names the first
// left-out step of the plan found, in the second search the first
// forbidden one (a backed-off step before it is not what blocks the goal:
// its back-off ends, the policy stays), or returns nil when no plan exists
// even with every action.
func (p *Planner) blameLeftOut(g *Goal, gs *goap.GoalSearch, start expr.State, maxDepth int) *PlanError {
	saved := p.s.Skip
	defer func() { p.s.Skip = saved }()
	try := func(keep, blame func(int32) bool) *Action {
		var mask []bool
		for i := range saved {
			if saved[i] && keep(int32(i)) {
				if mask == nil {
					mask = make([]bool, len(saved))
				}
				mask[i] = true
			}
		}
		p.s.Skip = mask
		end, res, _, _ := p.s.Search(gs, start, maxDepth)
		if res != goap.Found {
			return nil
		}
		var first, blamed *Action
		p.pathBuf = p.s.PathTo(end, p.pathBuf[:0])
		for _, ai := range p.pathBuf {
			if saved[ai] && !keep(ai) {
				first = p.Domain.Actions[ai] // the walk goes backwards: keep the earliest
				if blame(ai) {
					blamed = first
				}
			}
		}
		if blamed != nil {
			return blamed
		}
		return first
	}
	hasExcluded, hasForbidden := false, false
	for i := range saved {
		if saved[i] {
			hasExcluded = hasExcluded || p.excluded(int32(i))
			hasForbidden = hasForbidden || p.forbidden(int32(i))
		}
	}
	if hasExcluded {
		if a := try(p.forbidden, func(int32) bool { return true }); a != nil {
			return p.leftOutError(g, a, maxDepth)
		}
		if p.s.Suspended() {
			return nil // the caller asks again next tick
		}
	}
	if hasForbidden {
		if a := try(func(int32) bool { return false }, p.forbidden); a != nil {
			return p.leftOutError(g, a, maxDepth)
		}
	}
	return nil
}

// leftOutError is the error for goal g when left-out action a is what a
// plan needs: NOT_AUTHORIZED when the Policy forbids it, else BACKED_OFF.
func (p *Planner) leftOutError(g *Goal, a *Action, maxDepth int) *PlanError {
	if p.forbidden(int32(a.Index)) {
		return &PlanError{Reason: NotAuthorized, Goal: g.Name, Action: a.Name, Authority: a.Authority, MaxDepth: maxDepth,
			Detail: "a plan exists only through action \"" + a.Name + "\", which " + refusalClause(a, p.Policy.Authorities)}
	}
	if a.Uses != "" && p.objectWhy != nil {
		if why := p.objectWhy(a); why != "" {
			return &PlanError{Reason: BackedOff, Goal: g.Name, Action: a.Name, MaxDepth: maxDepth,
				Detail: "a plan exists only through action \"" + a.Name + "\", which uses a " + a.Uses + ": " + why}
		}
	}
	return &PlanError{Reason: BackedOff, Goal: g.Name, Action: a.Name, MaxDepth: maxDepth,
		Detail: "a plan exists only through action \"" + a.Name + "\", which is backed off after a failure"}
}
