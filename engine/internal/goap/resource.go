package goap

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// resource is a numeric variable y that every action moving a goal
// variable x toward the goal needs within a bound (its precondition has
// "y < c", "y <= c", "y > c" or "y >= c") and pushes toward that bound by a
// constant step. Between two such movers, only other actions (restorers)
// can bring y back, so n movers need at least
//
//	s = the least s with Y0 + (n-1)*step - s*back < lim (or <=)
//
// restorer steps, where Y = sign*y is y oriented so that the bound reads
// Y < lim, step is the least push of a mover and back the largest pull
// of a restorer. A goal that needs n movers then costs at least
// n*moverCost + s*backCost and takes n + s steps, since no action both
// pushes and pulls y.
type resource struct {
	slot     int
	sign     float64 // +1 when the bound is y < c or y <= c, -1 for > and >=
	lim      float64 // the loosest bound on Y over the movers
	strict   bool    // every mover's bound on Y at lim is strict
	step     float64 // the least push on Y of a mover, > 0
	back     float64 // the largest pull on Y of a restorer; 0 when none
	backCost float64 // the cheapest restorer
	exact    bool    // lim, step and back are integers: counts from an integer y are exact
}

// resourceFor finds the resource of the movers of atom a in one direction:
// the relevant actions whose constant step on a.slot has the sign of dir.
// It returns nil when there is none or the pattern does not hold.
func resourceFor(d *Problem, gs *GoalSearch, a *atom, dir float64) *resource {
	var movers []*Action
	for _, ai := range gs.actions {
		act := &d.Actions[ai]
		for i := range act.Effects.NumAssigns() {
			if act.Effects.Target(i) != a.slot {
				continue
			}
			if k, ok := constantStep(act.Effects, i, a.slot); ok && k*dir > 0 {
				movers = append(movers, act)
			}
		}
	}
	if len(movers) == 0 {
		return nil
	}
	// The bound: a numeric test of the first mover's flat precondition, on
	// another slot, that every mover has in the same orientation.
	for _, t := range flatCond(movers[0].Pre).tests {
		sign, ok := boundSign(&t)
		if !ok || t.slot == a.slot {
			continue
		}
		if r := resourceOn(d, gs, movers, t.slot, sign); r != nil {
			return r
		}
	}
	return nil
}

// boundSign returns +1 for "y < c" and "y <= c", -1 for "y > c" and
// "y >= c", with c a finite number.
func boundSign(t *fastTest) (float64, bool) {
	c, ok := t.lit.AsNumber()
	if t.kind != testCmp || !ok || math.IsInf(c, 0) || c != c {
		return 0, false
	}
	switch t.op {
	case expr.Lt, expr.Le:
		return 1, true
	case expr.Gt, expr.Ge:
		return -1, true
	}
	return 0, false
}

// loosest returns the looser of the bounds lim and l (the larger), strict
// only when both are strict at an equal bound.
func loosest(lim float64, strict bool, l float64, st bool) (float64, bool) {
	switch {
	case l > lim:
		return l, st
	case l == lim:
		return lim, strict && st
	}
	return lim, strict
}

func resourceOn(d *Problem, gs *GoalSearch, movers []*Action, slot int, sign float64) *resource {
	r := &resource{slot: slot, sign: sign, lim: math.Inf(-1), step: math.Inf(1)}
	isMover := map[*Action]bool{}
	for _, m := range movers {
		isMover[m] = true
		// The mover's bound: the loosest of its tests on Y (a looser bound
		// than the mover really has keeps the count a lower bound).
		found, lim, strict := false, math.Inf(-1), false
		for _, t := range flatCond(m.Pre).tests {
			if s, ok := boundSign(&t); !ok || s != sign || t.slot != slot {
				continue
			}
			c, _ := t.lit.AsNumber()
			lim, strict = loosest(lim, strict, sign*c, t.op == expr.Lt || t.op == expr.Gt)
			found = true
		}
		if !found {
			return nil
		}
		// The resource's bound: the loosest over the movers.
		r.lim, r.strict = loosest(r.lim, r.strict, lim, strict)
	}
	// Every relevant assignment to y is one constant step.
	for _, ai := range gs.actions {
		act := &d.Actions[ai]
		count := 0
		for i := range act.Effects.NumAssigns() {
			if act.Effects.Target(i) != slot {
				continue
			}
			count++
			k, ok := constantStep(act.Effects, i, slot)
			if !ok || count > 1 {
				return nil
			}
			switch dy := sign * k; {
			case isMover[act] && dy < r.step:
				r.step = dy
			case !isMover[act] && dy < 0:
				r.back = max(r.back, -dy)
				if r.backCost == 0 || act.Cost < r.backCost {
					r.backCost = act.Cost
				}
			}
		}
		if isMover[act] && count == 0 {
			r.step = 0 // a mover that leaves y alone
		}
	}
	if !(r.step > 0) || math.IsInf(r.step, 0) {
		return nil
	}
	r.exact = isInt(r.lim) && isInt(r.step) && isInt(r.back)
	return r
}

// restorers returns a lower bound on the restorer steps that n movers need
// from a state where y holds the number y (ok; else y is no number), or -1
// when no number of them is enough.
func (r *resource) restorers(y float64, ok bool, n float64) float64 {
	if !ok {
		return 0 // the movers' bound fails as it is; only assignments help
	}
	// Before the last mover: Y0 + (n-1)*step - s*back < lim (or <=).
	need := r.sign*y + (n-1)*r.step - r.lim
	if need < 0 || (!r.strict && need == 0) {
		return 0
	}
	if need != need || math.IsInf(need, 0) {
		return 0
	}
	if r.back == 0 {
		return -1
	}
	if r.exact && isInt(y) && need < 1<<50 {
		ni, bi := int64(need), int64(r.back)
		if r.strict {
			return float64(ni/bi + 1)
		}
		return float64((ni + bi - 1) / bi)
	}
	// Rounding could make a count one too high; stay below it.
	q := need/r.back - 1e-9*math.Max(1, need/r.back)
	var s float64
	if r.strict {
		s = math.Floor(q) + 1
	} else {
		s = math.Ceil(q)
	}
	return max(s, 0)
}
