package engine

import (
	"math"
	"strconv"
)

// Planner limits.
const (
	DefaultMaxDepth = 10
	MaxMaxDepth     = 256
	DefaultBudget   = 10000
)

// Plan is a sequence of actions that serves one or more goals. Steps is the
// whole plan; Goals splits it by goal, in the order the goals were planned.
type Plan struct {
	Steps []*Action
	Goals []GoalPlan
	Cost  float64
	// Expansions is the number of search nodes expanded to find the plan.
	Expansions int
}

// GoalPlan is the part of a plan that serves one goal.
type GoalPlan struct {
	Goal  *Goal
	Steps []*Action
	Cost  float64
}

// Names returns the step names.
func (p *Plan) Names() []string {
	out := make([]string, len(p.Steps))
	for i, a := range p.Steps {
		out[i] = a.Name
	}
	return out
}

// Planner is the backward-chaining (GOAP) planner of the TnsAI seed, made
// cost-optimal and deterministic.
//
// Algorithm. For each goal, the planner first regresses from the goal to
// the set of relevant actions: those that list the goal in fulfills or
// assign a variable the goal's condition reads, then, transitively, those
// that assign a variable read by a relevant action's precondition or
// effects (matched by parsed variable, never by substring; computed once
// when the domain compiles). It then runs a uniform-cost search (Dijkstra,
// with a binary heap) forward from the current state over those actions
// only, simulating each action's effects, until it pops a state where the
// goal holds. An action may appear any number of times.
//
// Guarantees. A returned plan is valid: each step's precondition holds in
// the simulated state where it runs and the goal holds after the last step.
// It is of least total cost among the plans of at most MaxDepth steps that
// use relevant actions (action cost, default 1). Among plans of equal cost,
// the one found first wins; successors are generated in declaration order
// and equal-cost nodes leave the queue in the order they entered it, so the
// same domain and state always give the same plan. States already reached
// at no more cost and no more depth are not expanded again, so cycles end.
// Memory is bounded by the expansion budget.
//
// Several goals. Plan plans every unsatisfied goal, highest priority first
// (declaration order among equals), applying each goal's steps to the
// simulated state before planning the next; goals satisfied at that point
// are skipped, never planned as empty plans.
//
// Failures are *PlanError values:
//   - UNREACHABLE: no action fulfills the goal or assigns a variable it
//     reads; or the search ended with no plan and was never cut by the
//     depth limit (Action and Precondition then name the first candidate
//     whose precondition never held).
//   - CYCLIC_PRECONDITION: as UNREACHABLE, when that blocking precondition
//     reads only variables that are assigned solely by actions needing such
//     a variable themselves: only the chain itself could produce it.
//   - MAX_DEPTH_EXCEEDED: the search ended with no plan within MaxDepth and
//     was cut by it; a second search without the cut (up to 256 steps,
//     same budget) then found a longer plan or ran out of budget.
//   - SEARCH_BUDGET_EXCEEDED: the search expanded Budget nodes first.
//
// With Chaining false, a goal is planned only as one candidate action that
// can run now and reaches the goal; otherwise UNREACHABLE.
//
// A Planner keeps scratch buffers between calls so steady-state planning
// does not allocate; it is not safe for concurrent use (use one per
// goroutine; they may share the Domain). The returned *Plan and its slices
// are valid until the next call.
type Planner struct {
	Domain   *Domain
	MaxDepth int  // steps per goal, clamped to 1..256; 0 means 10
	Budget   int  // node expansions per goal; 0 means 10,000
	Chaining bool // chain helper actions for unmet preconditions

	n      int // state width
	nodes  []node
	states State
	heap   []int32
	table  []int32
	gen    []uint32
	curGen uint32
	writes []int
	held   []bool

	sim  State
	plan Plan
	buf  []*Action
}

type node struct {
	g      float64
	hash   uint64
	parent int32
	action int32
	depth  int32
}

// NewPlanner returns a planner over d with chaining on and the given depth
// (clamped to 1..256; none means 10).
func NewPlanner(d *Domain, maxDepth ...int) *Planner {
	p := &Planner{Domain: d, Chaining: true, MaxDepth: DefaultMaxDepth}
	if len(maxDepth) > 0 {
		p.MaxDepth = maxDepth[0]
	}
	return p
}

func (p *Planner) depth() int {
	switch {
	case p.MaxDepth <= 0:
		return DefaultMaxDepth
	case p.MaxDepth > MaxMaxDepth:
		return MaxMaxDepth
	}
	return p.MaxDepth
}

func (p *Planner) budget() int {
	if p.Budget <= 0 {
		return DefaultBudget
	}
	return p.Budget
}

// Plan plans every goal unsatisfied in st, highest priority first. st is
// not modified. With every goal satisfied the plan is empty.
func (p *Planner) Plan(st State) (*Plan, error) {
	d := p.Domain
	p.sim = append(p.sim[:0], st...)
	p.plan = Plan{Steps: p.plan.Steps[:0], Goals: p.plan.Goals[:0]}
	for _, g := range d.ByPrio {
		if g.Satisfied(p.sim) {
			continue
		}
		if err := p.planGoal(g, p.sim); err != nil {
			return nil, err
		}
	}
	p.splitGoals()
	return &p.plan, nil
}

// PlanGoal plans the named goal alone from st. A goal already satisfied
// gives an empty plan; an unknown name is an error.
func (p *Planner) PlanGoal(name string, st State) (*Plan, error) {
	g := p.Domain.Goal(name)
	if g == nil {
		return nil, &PlanError{Reason: Unreachable, Goal: name, Detail: "no goal has this name" + suggest(name, goalNames(p.Domain))}
	}
	return p.PlanFor(g, st)
}

// PlanFor plans goal g alone from st.
func (p *Planner) PlanFor(g *Goal, st State) (*Plan, error) {
	p.sim = append(p.sim[:0], st...)
	p.plan = Plan{Steps: p.plan.Steps[:0], Goals: p.plan.Goals[:0]}
	if !g.Satisfied(p.sim) {
		if err := p.planGoal(g, p.sim); err != nil {
			return nil, err
		}
	}
	p.splitGoals()
	return &p.plan, nil
}

// splitGoals points each GoalPlan's Steps into the plan's Steps; done after
// planning so that growing Steps cannot leave stale slices.
func (p *Planner) splitGoals() {
	at := 0
	for i := range p.plan.Goals {
		n := len(p.plan.Goals[i].Steps)
		p.plan.Goals[i].Steps = p.plan.Steps[at : at+n : at+n]
		at += n
	}
}

// planGoal appends g's steps to p.plan and applies them to sim.
func (p *Planner) planGoal(g *Goal, sim State) error {
	if !p.Chaining {
		return p.planDirect(g, sim)
	}
	end, err := p.search(g, sim, p.depth())
	if err != nil {
		return err
	}
	// Walk back from end; steps come out reversed.
	p.buf = p.buf[:0]
	for i := end; p.nodes[i].parent >= 0; i = p.nodes[i].parent {
		p.buf = append(p.buf, p.Domain.Actions[p.nodes[i].action])
	}
	start := len(p.plan.Steps)
	for i := len(p.buf) - 1; i >= 0; i-- {
		p.plan.Steps = append(p.plan.Steps, p.buf[i])
	}
	cost := p.nodes[end].g
	p.plan.Cost += cost
	p.plan.Goals = append(p.plan.Goals, GoalPlan{Goal: g, Steps: p.plan.Steps[start:], Cost: cost})
	copy(sim, p.nodeState(end))
	return nil
}

func (p *Planner) planDirect(g *Goal, sim State) error {
	var best *Action
	var blocked *Action
	p.grow(2)
	scratch := p.states[:p.n]
	for _, i := range g.relevant {
		a := p.Domain.Actions[i]
		if !a.Serves(g) && !writesAny(a.Effects, g.Condition.Reads()) {
			continue
		}
		if !a.Pre.Eval(sim) {
			if blocked == nil || a.Serves(g) && !blocked.Serves(g) {
				blocked = a
			}
			continue
		}
		copy(scratch, sim)
		if bi, _ := a.Effects.apply(scratch, sim); bi >= 0 || !g.Satisfied(scratch) {
			continue
		}
		if best == nil || a.Cost < best.Cost {
			best = a
		}
	}
	if best == nil {
		e := &PlanError{Reason: Unreachable, Goal: g.Name, MaxDepth: 1, Detail: "no candidate action can run now and reach the goal (chaining is off)"}
		if blocked != nil {
			e.Action, e.Precondition = blocked.Name, blocked.Pre.Source()
		}
		return e
	}
	start := len(p.plan.Steps)
	p.plan.Steps = append(p.plan.Steps, best)
	p.plan.Cost += best.Cost
	p.plan.Goals = append(p.plan.Goals, GoalPlan{Goal: g, Steps: p.plan.Steps[start:], Cost: best.Cost})
	copy(scratch, sim)
	best.Effects.apply(sim, scratch)
	return nil
}

func writesAny(e *Effect, slots []int) bool {
	for _, w := range e.Writes() {
		for _, s := range slots {
			if w == s {
				return true
			}
		}
	}
	return false
}

func (p *Planner) nodeState(i int32) State {
	return p.states[int(i)*p.n : int(i+1)*p.n : int(i+1)*p.n]
}

// grow makes room for k nodes.
func (p *Planner) grow(k int) {
	p.n = p.Domain.Schema.Len()
	if cap(p.nodes) < k {
		p.nodes = make([]node, 0, k)
	}
	if len(p.states) < k*p.n {
		p.states = make(State, k*p.n)
	}
}

// search runs the uniform-cost search for g from start and returns the
// index of the goal node.
func (p *Planner) search(g *Goal, start State, maxDepth int) (int32, error) {
	d := p.Domain
	budget := p.budget()
	if len(g.relevant) == 0 {
		return -1, &PlanError{Reason: Unreachable, Goal: g.Name, MaxDepth: maxDepth,
			Detail: "no action fulfills the goal or assigns a variable its condition reads"}
	}
	p.prepareWrites(g)
	p.nodes = p.nodes[:0]
	p.heap = p.heap[:0]
	p.n = d.Schema.Len()
	p.resetTable()
	if cap(p.held) < len(d.Actions) {
		p.held = make([]bool, len(d.Actions))
	}
	p.held = p.held[:len(d.Actions)]
	clear(p.held)

	root := p.newNode(-1, -1, 0, 0)
	copy(p.nodeState(root), start)
	p.nodes[root].hash = p.hashState(p.nodeState(root))
	p.record(root)
	p.push(root)
	expansions, cut := 0, false
	for len(p.heap) > 0 {
		cur := p.pop()
		cs := p.nodeState(cur)
		if g.Satisfied(cs) {
			p.plan.Expansions += expansions
			return cur, nil
		}
		if expansions >= budget {
			return -1, &PlanError{Reason: SearchBudgetExceeded, Goal: g.Name, MaxDepth: maxDepth, Expansions: expansions,
				Detail: "the search expanded " + strconv.Itoa(expansions) + " states without reaching the goal"}
		}
		expansions++
		cn := p.nodes[cur]
		atMax := int(cn.depth) >= maxDepth
		for _, ai := range g.relevant {
			a := d.Actions[ai]
			if !a.Pre.Eval(cs) {
				continue
			}
			p.held[ai] = true
			if atMax {
				cut = true
				continue
			}
			child := p.newNode(cur, int32(ai), cn.g+a.Cost, cn.depth+1)
			cs = p.nodeState(cur) // the arena may have moved
			chs := p.nodeState(child)
			copy(chs, cs)
			if bi, _ := a.Effects.apply(chs, cs); bi >= 0 {
				p.nodes = p.nodes[:child]
				continue
			}
			p.nodes[child].hash = p.hashState(chs)
			if !p.record(child) {
				p.nodes = p.nodes[:child]
				continue
			}
			p.push(child)
		}
	}
	return -1, p.explain(g, start, maxDepth, cut, expansions)
}

// explain builds the error for a search that ran out of states.
func (p *Planner) explain(g *Goal, start State, maxDepth int, cut bool, expansions int) error {
	d := p.Domain
	if cut && maxDepth < MaxMaxDepth {
		held := append([]bool(nil), p.held...)
		end, err := p.search(g, start, MaxMaxDepth)
		e := &PlanError{Reason: MaxDepthExceeded, Goal: g.Name, MaxDepth: maxDepth, Expansions: expansions}
		switch pe, _ := err.(*PlanError); {
		case err == nil:
			e.Detail = "a plan of " + strconv.Itoa(int(p.nodes[end].depth)) + " steps exists, beyond maxDepth " + strconv.Itoa(maxDepth)
			return e
		case pe != nil && pe.Reason == SearchBudgetExceeded:
			e.Detail = "no plan within " + strconv.Itoa(maxDepth) + " steps; the search was cut by the depth limit"
			return e
		}
		copy(p.held, held)
	}
	e := &PlanError{Reason: Unreachable, Goal: g.Name, MaxDepth: maxDepth, Expansions: expansions,
		Detail: "no chain of actions reaches the goal"}
	// The first direct candidate whose precondition never held blocked it.
	var blocker *Action
	for _, ai := range g.relevant {
		a := d.Actions[ai]
		if (a.Serves(g) || writesAny(a.Effects, g.Condition.Reads())) && !p.held[ai] {
			if blocker == nil || a.Serves(g) && !blocker.Serves(g) {
				blocker = a
			}
		}
	}
	if blocker == nil {
		return e
	}
	e.Action, e.Precondition = blocker.Name, blocker.Pre.Source()
	e.Detail = "the precondition of \"" + blocker.Name + "\" never holds"
	if p.cyclic(blocker) {
		e.Reason = CyclicPrecondition
		e.Detail = "the precondition of \"" + blocker.Name + "\" can only be produced by actions that need it themselves"
	}
	return e
}

// cyclic reports whether every variable a's precondition reads that some
// action assigns is assigned only by actions whose own preconditions read
// one of those variables, and at least one such writer exists.
func (p *Planner) cyclic(a *Action) bool {
	reads := a.Pre.Reads()
	any := false
	for _, s := range reads {
		for _, wi := range p.Domain.writers[s] {
			any = true
			w := p.Domain.Actions[wi]
			needs := false
			for _, r := range w.Pre.Reads() {
				for _, s2 := range reads {
					needs = needs || r == s2
				}
			}
			if !needs {
				return false
			}
		}
	}
	return any
}

func (p *Planner) prepareWrites(g *Goal) {
	p.writes = p.writes[:0]
	for _, ai := range g.relevant {
		for _, s := range p.Domain.Actions[ai].Effects.Writes() {
			p.writes = appendUnique(p.writes, s)
		}
	}
}

func (p *Planner) newNode(parent, action int32, g float64, depth int32) int32 {
	i := int32(len(p.nodes))
	p.nodes = append(p.nodes, node{g: g, parent: parent, action: action, depth: depth})
	if need := len(p.nodes) * p.n; need > len(p.states) {
		ns := make(State, max(need, 2*len(p.states)))
		copy(ns, p.states)
		p.states = ns
	}
	return i
}

// hashState hashes the slots the relevant actions write: the others never
// change during one search.
func (p *Planner) hashState(st State) uint64 {
	h := uint64(14695981039346656037)
	for _, s := range p.writes {
		v := &st[s]
		h = (h ^ uint64(v.k)) * 1099511628211
		h = (h ^ math.Float64bits(v.n)) * 1099511628211
		for i := 0; i < len(v.s); i++ {
			h = (h ^ uint64(v.s[i])) * 1099511628211
		}
	}
	return h
}

func (p *Planner) sameState(a, b State) bool {
	for _, s := range p.writes {
		if !a[s].Equal(b[s]) {
			return false
		}
	}
	return true
}

func (p *Planner) resetTable() {
	if len(p.table) == 0 {
		p.table = make([]int32, 1024)
		p.gen = make([]uint32, 1024)
	}
	p.curGen++
	if p.curGen == 0 {
		clear(p.gen)
		p.curGen = 1
	}
}

// record stores node i as the best known path to its state, unless a
// recorded path reaches the same state at no more cost and no more depth;
// it reports whether i is worth expanding.
func (p *Planner) record(i int32) bool {
	if 2*len(p.nodes) > len(p.table) {
		p.rehash()
	}
	n := &p.nodes[i]
	mask := uint64(len(p.table) - 1)
	st := p.nodeState(i)
	for h := n.hash & mask; ; h = (h + 1) & mask {
		if p.gen[h] != p.curGen {
			p.gen[h], p.table[h] = p.curGen, i
			return true
		}
		o := p.table[h]
		on := &p.nodes[o]
		if on.hash == n.hash && p.sameState(p.nodeState(o), st) {
			if on.g <= n.g && on.depth <= n.depth {
				return false
			}
			p.table[h] = i
			return true
		}
	}
}

func (p *Planner) rehash() {
	size := len(p.table) * 2
	for size < 4*len(p.nodes) {
		size *= 2
	}
	table, gen := make([]int32, size), make([]uint32, size)
	mask := uint64(size - 1)
	for h, g := range p.gen {
		if g != p.curGen {
			continue
		}
		i := p.table[h]
		for k := p.nodes[i].hash & mask; ; k = (k + 1) & mask {
			if gen[k] != p.curGen {
				gen[k], table[k] = p.curGen, i
				break
			}
		}
	}
	p.table, p.gen = table, gen
}

// The open set: a binary heap of node indexes ordered by cost, then by
// creation order (node index), which gives the declaration-order tie-break.
func (p *Planner) less(a, b int32) bool {
	ga, gb := p.nodes[a].g, p.nodes[b].g
	if ga != gb {
		return ga < gb
	}
	return a < b
}

func (p *Planner) push(i int32) {
	p.heap = append(p.heap, i)
	k := len(p.heap) - 1
	for k > 0 {
		up := (k - 1) / 2
		if !p.less(p.heap[k], p.heap[up]) {
			break
		}
		p.heap[k], p.heap[up] = p.heap[up], p.heap[k]
		k = up
	}
}

func (p *Planner) pop() int32 {
	top := p.heap[0]
	last := len(p.heap) - 1
	p.heap[0] = p.heap[last]
	p.heap = p.heap[:last]
	k := 0
	for {
		l, r, m := 2*k+1, 2*k+2, k
		if l < last && p.less(p.heap[l], p.heap[m]) {
			m = l
		}
		if r < last && p.less(p.heap[r], p.heap[m]) {
			m = r
		}
		if m == k {
			break
		}
		p.heap[k], p.heap[m] = p.heap[m], p.heap[k]
		k = m
	}
	return top
}
