package goap

import (
	"math"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// GoalSearch is what the planner precomputes once per goal (and per
// Planner, lazily): the actions it may use, the state slots that tell
// search states apart, and the admissible heuristic.
type GoalSearch struct {
	goal    *Goal
	cond    fastCond     // the goal condition
	single  numRange     // the condition as one range of numbers, when it is one (Satisfied's form)
	acts    []planAction // the relevant actions, flattened
	actions []int32      // relevant actions, declaration order
	direct  []int32      // the goal's candidates (see isCandidate), declaration order
	full    []int        // slots compared by value: read by the goal, a precondition or a relevant assignment
	kinds   []int        // slots compared by kind only: arithmetic operands whose value matters nowhere
	atoms   []atom       // conjuncts of the goal condition, for the heuristic
	// finish is the cost of the cheapest relevant action that lists the
	// goal in fulfills (+Inf when none does): such a step completes the
	// goal whatever its effects, so no state is farther from the goal.
	finish float64

	index *actionIndex // nil when no index pays
	// additive says states hash as a sum of slot shares, because some
	// action updates its children's hashes (planAction.incHash); else the
	// cheaper chainHash.
	additive bool
	// keyBits and keySteps are the layout of node.key for the domain's
	// number of actions (see Searcher.childKey).
	keyBits, keySteps int
	// words is the search compiled to words (planner_words.go), or nil
	// when the goal does not fit.
	words *wordSearch
}

// atom is one conjunct of a goal condition. Its estimate is a lower bound
// on the cost (and on the number of steps) still needed to make it hold.
type atom struct {
	node  expr.Node
	test  fastCond // the atom on its own, for eval
	reads []int
	// minCost is the cost of the cheapest relevant action that assigns a
	// variable the atom reads; +Inf when none does.
	minCost float64

	// numeric: the atom is "x op c" (op one of < <= > >=, c a number) and
	// every action that assigns x adds a constant to it.
	numeric            bool
	slot               int
	op                 expr.Cmp // x op lit, normalised so x is on the left
	lit                float64
	inc, incCost       float64 // largest increase in one step and the cheapest action with an increase; 0 when none
	dec, decCost       float64 // the same for decreases (dec > 0)
	incInt, decInt     bool    // every increase (decrease) is an integer
	incExact, decExact bool    // and so is lit: counts from an integer x are exact

	// incRes and decRes are the resources the increasing (decreasing)
	// actions need, or nil; see resource.
	incRes, decRes *resource

	// rel is the relaxed estimate of a bare-variable atom, or nil (see
	// relaxed).
	rel *relaxed

	// The direction the atom needs, chosen once by numericAtom: up for >
	// and >= (the inc fields), else down (the dec fields); strict for >
	// and <; istep is step as an integer when exact.
	up, strict bool
	step, cost float64
	istep      int64
	exact      bool
	res        *resource

	// plain: not numeric and without rel, so the estimate is the atom's
	// test and one step of minCost.
	plain bool
}

// analyse computes the GoalSearch of g over d.
//
// Relevance is a backward regression over parsed variables (never text):
// V starts as the variables the goal reads; an action is relevant when it
// fulfills the goal or assigns a variable of V or K; a relevant action adds
// to V the variables its precondition reads and those read by its
// assignments to V. K holds the operands of the relevant actions' "+"/"-"
// assignments (whose kind decides whether the effect applies at all) and,
// transitively, the sources of plain copies into K. Any plan can drop its
// irrelevant steps and stay valid and reach the goal, at less cost; so the
// search loses no optimal plan by using only relevant actions.
func analyse(d *Problem, g *Goal) *GoalSearch {
	ns := d.Schema.Len()
	inV, inK := make([]bool, ns), make([]bool, ns)
	inA := make([]bool, len(d.Actions))
	for _, s := range g.Condition.Reads() {
		inV[s] = true
	}
	for ai := range d.Actions {
		a := &d.Actions[ai]
		if isCandidate(a, g) {
			inA[a.Index] = true
		}
	}
	for changed := true; changed; {
		changed = false
		set := func(m []bool, s int) {
			if !m[s] {
				m[s], changed = true, true
			}
		}
		for ai := range d.Actions {
			a := &d.Actions[ai]
			if !inA[a.Index] {
				for _, s := range a.Effects.Writes() {
					if inV[s] || inK[s] {
						inA[a.Index], changed = true, true
						break
					}
				}
			}
			if !inA[a.Index] {
				continue
			}
			for _, s := range a.Pre.Reads() {
				set(inV, s)
			}
			if a.Effects == nil {
				continue
			}
			e := a.Effects
			for i := range e.NumAssigns() {
				target, arith := e.Target(i), e.IsArithmetic(i)
				for j := range e.NumTerms(i) {
					t := e.Term(i, j)
					if !t.IsVar {
						continue
					}
					if inV[target] {
						set(inV, t.Slot)
					}
					if arith || inK[target] {
						set(inK, t.Slot)
					}
				}
			}
		}
	}
	gs := &GoalSearch{goal: g}
	written := make([]bool, ns)
	gs.cond = flatCond(g.Condition)
	gs.single = rangeOf(&gs.cond)
	gs.finish = math.Inf(1)
	for ai := range d.Actions {
		a := &d.Actions[ai]
		if !inA[a.Index] {
			continue
		}
		gs.actions = append(gs.actions, int32(a.Index))
		gs.acts = append(gs.acts, planAction{index: int32(a.Index), cost: a.Cost, pre: flatCond(a.Pre), eff: flatEffect(a.Effects),
			finishes: a.Serves(g), once: a.NoRerun})
		if a.Serves(g) && a.Cost < gs.finish {
			gs.finish = a.Cost
		}
		for _, s := range a.Effects.Writes() {
			written[s] = true
		}
		if isCandidate(a, g) {
			gs.direct = append(gs.direct, int32(a.Index))
		}
	}
	for s := 0; s < ns; s++ {
		switch {
		case !written[s]:
			// never changes during one search
		case inV[s]:
			gs.full = append(gs.full, s)
		case inK[s]:
			gs.kinds = append(gs.kinds, s)
		}
	}
	gs.atoms = atomsOf(d, gs, g.Condition)
	gs.markRoles(ns)
	gs.buildIndex()
	gs.keyBits = 8
	if len(d.Actions) >= 255 {
		gs.keyBits = 16
	}
	if len(d.Actions) >= 65535 {
		gs.keyBits = 64 // no room: compare by walking
	}
	gs.keySteps = 64 / gs.keyBits
	if gs.keyBits == 64 {
		gs.keySteps = 0
	}
	gs.words = compileWords(d, gs)
	return gs
}

// atomsOf splits a condition at its top-level "&&" and analyses each part.
func atomsOf(d *Problem, gs *GoalSearch, c *Condition) []atom {
	if c.IsEmpty() {
		return nil
	}
	parts := conjuncts(c)
	out := make([]atom, 0, len(parts))
	for _, n := range parts {
		a := atom{node: n, minCost: math.Inf(1), reads: n.Reads(nil), test: flatNode(c, n)}
		for _, ai := range gs.actions {
			act := &d.Actions[ai]
			if writesAny(act.Effects, a.reads) && act.Cost < a.minCost {
				a.minCost = act.Cost
			}
		}
		numericAtom(d, gs, &a)
		a.rel = relaxedFor(d, gs, &a)
		a.plain = !a.numeric && a.rel == nil
		out = append(out, a)
	}
	return out
}

// numericAtom recognises "x op c" with op one of < <= > >= and c a number,
// when every relevant assignment to x has the form x = x + k1 - k2 ... .
func numericAtom(d *Problem, gs *GoalSearch, a *atom) {
	if a.node.Op() != expr.OpVarLit {
		return
	}
	slot, op, lit := a.node.Slot(), a.node.Cmp(), a.node.Lit()
	switch op {
	case expr.Lt, expr.Le, expr.Gt, expr.Ge:
	default:
		return
	}
	c, ok := lit.AsNumber()
	if !ok {
		return
	}
	a.slot, a.op, a.lit = slot, op, c
	a.incInt, a.decInt = true, true
	for _, ai := range gs.actions {
		act := &d.Actions[ai]
		if act.Effects == nil {
			continue
		}
		count := 0
		for i := range act.Effects.NumAssigns() {
			if act.Effects.Target(i) != slot {
				continue
			}
			count++
			k, ok := constantStep(act.Effects, i, slot)
			if !ok || count > 1 {
				return
			}
			switch {
			case k > 0:
				if k > a.inc {
					a.inc = k
				}
				if a.incCost == 0 || act.Cost < a.incCost {
					a.incCost = act.Cost
				}
				a.incInt = a.incInt && isInt(k)
			case k < 0:
				if -k > a.dec {
					a.dec = -k
				}
				if a.decCost == 0 || act.Cost < a.decCost {
					a.decCost = act.Cost
				}
				a.decInt = a.decInt && isInt(-k)
			}
		}
	}
	a.numeric = true
	a.incExact = a.incInt && isInt(c)
	a.decExact = a.decInt && isInt(c)
	a.incRes = resourceFor(d, gs, a, 1)
	a.decRes = resourceFor(d, gs, a, -1)
	a.up, a.strict = op == expr.Gt || op == expr.Ge, op == expr.Gt || op == expr.Lt
	if a.up {
		a.step, a.cost, a.exact, a.res = a.inc, a.incCost, a.incExact, a.incRes
	} else {
		a.step, a.cost, a.exact, a.res = a.dec, a.decCost, a.decExact, a.decRes
	}
	if a.exact {
		a.istep = int64(a.step)
	}
}

// constantStep reports k when the assignment is slot = slot + k (literal
// numeric terms in any order, the variable once and not subtracted).
func constantStep(e *Effect, i, slot int) (float64, bool) {
	k, seen := 0.0, false
	for j := range e.NumTerms(i) {
		t := e.Term(i, j)
		if t.IsVar {
			if t.Slot != slot || t.Sub || seen {
				return 0, false
			}
			seen = true
			continue
		}
		v, ok := t.Lit.AsNumber()
		if !ok {
			return 0, false
		}
		if t.Sub {
			k -= v
		} else {
			k += v
		}
	}
	return k, seen
}

func isInt(f float64) bool { return f == math.Trunc(f) && math.Abs(f) < 1<<50 }

// estimate returns a lower bound on the cost and on the number of steps
// needed to make the atom hold from st: 0 when it holds, +Inf when no
// sequence of relevant actions can.
func (a *atom) estimate(st State) (float64, int32) {
	if !a.numeric {
		if a.test.eval(st) {
			return 0, 0
		}
		if a.rel != nil {
			return a.rel.estimate(st, a.minCost)
		}
		return a.minCost, 1
	}
	x, ok := st[a.slot].AsNumber()
	if !ok { // Unknown, or no number: only a plain assignment can help
		return a.minCost, 1
	}
	var y float64
	yok := false
	if a.res != nil {
		y, yok = st[a.res.slot].AsNumber()
	}
	return a.estimateAt(x, y, yok)
}

// estimateAt is estimate for a numeric atom whose variable holds the
// number x; y is the resource's value when yok (see resource).
func (a *atom) estimateAt(x, y float64, yok bool) (float64, int32) {
	need, step, strict := a.lit-x, a.step, a.strict
	if !a.up {
		need = x - a.lit
	}
	// The atom holds when need < 0 (strict) or need <= 0.
	if need < 0 || (!strict && need <= 0) {
		return 0, 0
	}
	if need != need { // NaN: the comparison fails, no step count makes sense
		return a.minCost, 1
	}
	if step == 0 {
		return math.Inf(1), math.MaxInt32
	}
	// Steps n such that moving by n*step makes the atom hold: n >= need/step,
	// or n > need/step when strict.
	var n float64
	if a.exact && x == float64(int64(x)) && need < 1<<50 {
		ni, si := int64(need), a.istep
		if strict {
			n = float64(ni/si + 1)
		} else {
			n = float64((ni + si - 1) / si)
		}
	} else {
		// Rounding could make an exact count one too high; stay below it.
		q := need/step - 1e-9*math.Max(1, need/step)
		if strict {
			n = math.Floor(q) + 1
		} else {
			n = math.Ceil(q)
		}
	}
	if n < 1 {
		n = 1
	}
	if n > math.MaxInt32 {
		n = math.MaxInt32
	}
	cost := a.cost
	if res := a.res; res != nil {
		s := res.restorers(y, yok, n)
		if s < 0 {
			return math.Inf(1), math.MaxInt32
		}
		if n+s > math.MaxInt32 {
			return n*cost + s*res.backCost, math.MaxInt32
		}
		return n*cost + s*res.backCost, int32(n + s)
	}
	return n * cost, int32(n)
}

// conjuncts returns the parts of c's top-level "&&" (c's root itself when
// it is not a conjunction). c must not be empty.
func conjuncts(c *Condition) []expr.Node {
	root := c.Root()
	if root.Op() != expr.OpAnd {
		return []expr.Node{root}
	}
	out := make([]expr.Node, root.NumKids())
	for i := range out {
		out[i] = root.Kid(i)
	}
	return out
}

// planAction is a relevant action as the search runs it: its precondition
// and effects flattened for the common shapes.
type planAction struct {
	index    int32
	cost     float64
	pre      fastCond
	eff      fastEffect
	finishes bool // lists the goal in fulfills: a step by it completes the goal
	// mayLoop says a child by the action may be a self-loop, so the search
	// asks eff.changesNothing; false when it finishes (see expandBy) or
	// its effect always changes a slot compared by value (see markRoles).
	mayLoop bool
	// incHash says a child's hash is its parent's with the shares of the
	// assigned slots replaced (see markRoles and hashState).
	incHash bool
	once    bool // NoRerun: at most once in a plan
}

// fastCond is a condition flattened to a conjunction of simple tests, or
// the condition itself when it has another shape. eval gives exactly
// Condition.Eval: a test on an Unknown variable fails, and so does the
// conjunction.
type fastCond struct {
	tests []fastTest
	slow  *Condition // the condition, or one conjunct of it, with another shape
}

type fastTest struct {
	kind uint8 // testCmp, testVar, testNotVar
	op   expr.Cmp
	// ev is how eval runs the test: kind itself, or for a comparison with
	// a number or string literal one of the evNum and evStr forms, which
	// give exactly op.Compare without its generic dispatch.
	ev   uint8
	slot int
	lit  Value
	num  float64 // lit's number, for the evNum forms
	str  string  // lit's string, for evStrEq
}

// The ev forms beyond testCmp, testVar and testNotVar.
const (
	evNumEq = testNotVar + 1 + iota // st[slot] is the number num
	evNumNe                         // st[slot] is known and not the number num
	evNumLt                         // st[slot] is a number < num
	evNumLe
	evNumGt
	evNumGe
	evStrEq // st[slot] is the string lit
)

// evOf returns the ev form of a comparison with lit.
func evOf(op expr.Cmp, lit Value) uint8 {
	switch lit.Kind() {
	case expr.Number:
		switch op {
		case expr.Eq:
			return evNumEq
		case expr.Ne:
			return evNumNe
		case expr.Lt:
			return evNumLt
		case expr.Le:
			return evNumLe
		case expr.Gt:
			return evNumGt
		case expr.Ge:
			return evNumGe
		}
	case expr.String:
		if op == expr.Eq {
			return evStrEq
		}
	}
	return testCmp
}

const (
	testCmp    = iota // compare(op, st[slot], lit)
	testVar           // st[slot] is true
	testNotVar        // st[slot] is known and not true
)

func (f *fastCond) eval(st State) bool {
	if f.slow != nil {
		return f.slow.Eval(st)
	}
	for i := range f.tests {
		t := &f.tests[i]
		v := &st[t.slot]
		var ok bool
		switch t.ev {
		case testVar:
			ok = v.Truthy()
		case testNotVar:
			ok = v.IsKnown() && !v.Truthy()
		case evNumLt:
			n, isNum := v.AsNumber()
			ok = isNum && n < t.num
		case evNumLe:
			n, isNum := v.AsNumber()
			ok = isNum && n <= t.num
		case evNumGt:
			n, isNum := v.AsNumber()
			ok = isNum && n > t.num
		case evNumGe:
			n, isNum := v.AsNumber()
			ok = isNum && n >= t.num
		case evNumEq:
			n, isNum := v.AsNumber()
			ok = isNum && n == t.num
		case evNumNe:
			n, isNum := v.AsNumber()
			ok = v.IsKnown() && (!isNum || n != t.num)
		case evStrEq:
			s, isStr := v.AsString()
			ok = isStr && s == t.str
		default:
			ok = v.IsKnown() && t.op.Compare(*v, t.lit)
		}
		if !ok {
			return false
		}
	}
	return true
}

// numRange is a condition of one test of a number against a literal
// ("x > 10", not "!="), as the closed range of numbers for which it
// holds: with lo > hi, none. on says the condition has that form.
type numRange struct {
	on     bool
	slot   int
	lo, hi float64
}

// rangeOf returns c as a numRange, or one that is not on. A strict bound
// is the next float64 towards the range; NaN, which fails every compare,
// lies in no range.
func rangeOf(c *fastCond) numRange {
	if c.slow != nil || len(c.tests) != 1 {
		return numRange{}
	}
	t := &c.tests[0]
	r := numRange{on: true, slot: t.slot, lo: math.Inf(-1), hi: math.Inf(1)}
	switch t.ev {
	case evNumLt:
		r.hi = math.Nextafter(t.num, math.Inf(-1))
		if t.num == math.Inf(-1) {
			r.lo = math.Inf(1) // none: nothing is below -Inf
		}
	case evNumLe:
		r.hi = t.num
	case evNumGt:
		r.lo = math.Nextafter(t.num, math.Inf(1))
		if t.num == math.Inf(1) {
			r.hi = math.Inf(-1) // none: nothing is above +Inf
		}
	case evNumGe:
		r.lo = t.num
	case evNumEq:
		r.lo, r.hi = t.num, t.num
	default:
		return numRange{}
	}
	return r
}

// holds reports whether st[r.slot] is a number within r: exactly the
// test's eval.
func (r *numRange) holds(st State) bool {
	n, ok := st[r.slot].AsNumber()
	return ok && n >= r.lo && n <= r.hi
}

// flatNode flattens one conjunct: its clause (see expr.Clause), or, for
// another shape, the conjunct evaluated on the tree with the Unknown rule
// applied to its own variables.
func flatNode(c *Condition, n expr.Node) fastCond {
	if cl, ok := n.Clause(); ok {
		return fastCond{tests: []fastTest{testOf(cl)}}
	}
	return fastCond{slow: n.Condition(c)}
}

// flatCond flattens c from expr's clauses of its conjunction, or keeps c
// itself when a conjunct has another shape.
func flatCond(c *Condition) fastCond {
	clauses, ok := c.Clauses()
	if !ok {
		return fastCond{slow: c}
	}
	var tests []fastTest
	for _, cl := range clauses {
		tests = append(tests, testOf(cl))
	}
	return fastCond{tests: tests}
}

// fastEffect is an effect flattened to simple assignments, or the effect
// itself when an assignment has another shape. apply gives exactly
// Effect.apply: simultaneous assignment from src into dst (a copy of src),
// false when an arithmetic operand is not a number.
type fastEffect struct {
	as   []fastAssign
	slow *Effect
}

type fastAssign struct {
	kind uint8 // assignLit, assignCopy, assignAdd
	role uint8 // the target slot's part in the search (slotFull, ...), set by markRoles
	slot int
	src  int
	lit  Value
	k    float64
}

const (
	assignLit  = iota // dst[slot] = lit
	assignCopy        // dst[slot] = src[src]
	assignAdd         // dst[slot] = src[src] + k, a number
)

func (f *fastEffect) apply(dst, src State) bool {
	if f.slow != nil {
		return f.slow.TryApply(dst, src)
	}
	for i := range f.as {
		a := &f.as[i]
		switch a.kind {
		case assignLit:
			dst[a.slot] = a.lit
		case assignCopy:
			dst[a.slot] = src[a.src]
		default:
			x, ok := src[a.src].AsNumber()
			if !ok {
				return false
			}
			s := x + a.k
			if s == 0 {
				s = 0 // no negative zero in state, as in Effect
			}
			dst[a.slot] = expr.NumberValue(s)
		}
	}
	return true
}

func flatEffect(e *Effect) fastEffect {
	if e == nil {
		return fastEffect{}
	}
	var out []fastAssign
	for i := range e.NumAssigns() {
		slot := e.Target(i)
		t0 := e.Term(i, 0)
		var t1 expr.Term
		if e.NumTerms(i) > 1 {
			t1 = e.Term(i, 1)
		}
		switch n1, k1 := e.NumTerms(i), litNumber(t1.Lit); {
		case n1 == 1 && !t0.Sub && t0.IsVar:
			out = append(out, fastAssign{kind: assignCopy, slot: slot, src: t0.Slot})
		case n1 == 1 && !t0.Sub:
			out = append(out, fastAssign{kind: assignLit, slot: slot, lit: t0.Lit})
		case n1 == 2 && t0.IsVar && !t0.Sub && !t1.IsVar && isNumber(t1.Lit):
			if t1.Sub {
				k1 = -k1
			}
			out = append(out, fastAssign{kind: assignAdd, slot: slot, src: t0.Slot, k: k1})
		case n1 == 2 && !t0.IsVar && !t0.Sub && isNumber(t0.Lit) && t1.IsVar && !t1.Sub:
			out = append(out, fastAssign{kind: assignAdd, slot: slot, src: t1.Slot, k: litNumber(t0.Lit)})
		default:
			return fastEffect{slow: e}
		}
	}
	return fastEffect{as: out}
}

// testOf is the search's form of one clause: "x op literal" with its ev
// form, "x" or "!x".
func testOf(cl expr.Clause) fastTest {
	switch cl.Op {
	case expr.OpVarLit:
		return fastTest{kind: testCmp, op: cl.Cmp, ev: evOf(cl.Cmp, cl.Lit), slot: cl.Slot, lit: cl.Lit, num: litNumber(cl.Lit), str: litString(cl.Lit)}
	case expr.OpVar:
		return fastTest{kind: testVar, ev: testVar, slot: cl.Slot}
	}
	return fastTest{kind: testNotVar, ev: testNotVar, slot: cl.Slot}
}

func litNumber(v Value) float64 { f, _ := v.AsNumber(); return f }

func litString(v Value) string { s, _ := v.AsString(); return s }

func isNumber(v Value) bool { return v.Kind() == expr.Number }
