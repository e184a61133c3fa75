package bench

import (
	"container/heap"
	"fmt"
	"github.com/moonmind-ai/moonmind/internal/plancases"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// This file is the baseline the bench guard measures moonmind against: a
// plain textbook forward A* over map-based states, with its own small
// interpreter of the condition and effect strings of a RoleSpec. It shares
// no code with the engine's planner or expression language (it reads only
// the RoleSpec's strings and numbers), so a change that slows the engine
// does not slow the baseline, and load on the machine slows both alike.

// MapState is a world state as the baseline keeps it: variable name to a
// value that is nil, a bool, a float64 or a string.
type MapState map[string]any

// BaselineDomain is a role compiled for the baseline planner. Read-only
// after NewBaselineDomain; safe for concurrent use.
type BaselineDomain struct {
	vars     []string // the state's variable names, sorted: the key order
	start    MapState
	goal     mapCond
	actions  []mapAction
	maxDepth int
	minCost  float64
}

type mapAction struct {
	name    string
	pre     mapCond // nil means always
	effects []mapAssign
	cost    float64
}

// NewBaselineDomain compiles the first goal and every action of c's role
// for the baseline planner. It returns an error naming the action or goal
// whose text the baseline's interpreter does not read (it knows "||",
// "&&", "!", parentheses, comparisons of a variable or literal with a
// literal or variable, bare variables; assignments of a sum or difference
// of literals and variables).
func NewBaselineDomain(c plancases.PlannerCase) (*BaselineDomain, error) {
	r := c.Role
	d := &BaselineDomain{start: MapState{}, maxDepth: c.MaxDepth}
	known := map[string]bool{}
	for _, v := range r.State {
		d.vars = append(d.vars, v.Name)
		d.start[v.Name] = v.Value.Interface()
		known[v.Name] = true
	}
	slices.Sort(d.vars)
	if len(r.Goals) == 0 {
		return nil, fmt.Errorf("bench: baseline: role %s has no goal", r.Name)
	}
	var err error
	if d.goal, err = parseMapCond(r.Goals[0].Condition, known); err != nil {
		return nil, fmt.Errorf("bench: baseline: goal %s: %w", r.Goals[0].Name, err)
	}
	for _, as := range r.Actions {
		a := mapAction{name: as.Name, cost: as.Cost}
		if a.cost == 0 {
			a.cost = 1
		}
		if strings.TrimSpace(as.Pre) != "" {
			if a.pre, err = parseMapCond(as.Pre, known); err != nil {
				return nil, fmt.Errorf("bench: baseline: action %s pre: %w", as.Name, err)
			}
		}
		if a.effects, err = parseMapEffects(as.Effects, known); err != nil {
			return nil, fmt.Errorf("bench: baseline: action %s effects: %w", as.Name, err)
		}
		if d.minCost == 0 || a.cost < d.minCost {
			d.minCost = a.cost
		}
		d.actions = append(d.actions, a)
	}
	return d, nil
}

// Start returns a copy of the role's initial state.
func (d *BaselineDomain) Start() MapState { return maps.Clone(d.start) }

// baseNode is a search node of BaselinePlan.
type baseNode struct {
	state  MapState
	g      float64
	f      float64
	depth  int
	seq    int // insertion order, to break ties the same way every run
	parent *baseNode
	action int
}

type baseHeap []*baseNode

func (h baseHeap) Len() int { return len(h) }
func (h baseHeap) Less(i, j int) bool {
	if h[i].f != h[j].f {
		return h[i].f < h[j].f
	}
	return h[i].seq < h[j].seq
}
func (h baseHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *baseHeap) Push(x any)   { *h = append(*h, x.(*baseNode)) }
func (h *baseHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

// BaselinePlan is the textbook A*: from start, expand the open node of
// least f = g + h (a binary heap; ties by insertion), skip a state already
// closed, stop at the first node whose state meets the goal, and push
// every successor (a clone of the state map with the action's effects)
// that is not closed and improves on the best g seen for its state. States
// are identified by a string of their sorted variables and values. The
// heuristic is 0 when the goal holds and the cheapest action's cost
// otherwise, which is admissible and consistent. Nodes at the depth limit
// are not expanded. It returns the plan's action names and its cost, or
// ok false when there is no plan within the depth limit. It allocates
// freely and is safe for concurrent use.
func (d *BaselineDomain) BaselinePlan(start MapState) (plan []string, cost float64, ok bool) {
	h := func(s MapState) float64 {
		if d.goal(s) {
			return 0
		}
		return d.minCost
	}
	best := map[string]float64{}
	closed := map[string]bool{}
	var key []byte
	keyOf := func(s MapState) string {
		key = key[:0]
		for _, v := range d.vars {
			key = append(key, v...)
			key = append(key, '=')
			switch x := s[v].(type) {
			case float64:
				key = strconv.AppendFloat(key, x, 'g', -1, 64)
			case string:
				key = strconv.AppendQuote(key, x)
			case bool:
				key = strconv.AppendBool(key, x)
			default:
				key = append(key, "nil"...)
			}
			key = append(key, ';')
		}
		return string(key)
	}
	seq := 0
	open := &baseHeap{{state: start, f: h(start), action: -1}}
	best[keyOf(start)] = 0
	for open.Len() > 0 {
		n := heap.Pop(open).(*baseNode)
		if d.goal(n.state) {
			cost = n.g
			for ; n.parent != nil; n = n.parent {
				plan = append(plan, d.actions[n.action].name)
			}
			slices.Reverse(plan)
			return plan, cost, true
		}
		k := keyOf(n.state)
		if closed[k] {
			continue
		}
		closed[k] = true
		if n.depth >= d.maxDepth {
			continue
		}
		for i, a := range d.actions {
			if a.pre != nil && !a.pre(n.state) {
				continue
			}
			next := maps.Clone(n.state)
			applyMapEffects(a.effects, n.state, next)
			nk := keyOf(next)
			if closed[nk] {
				continue
			}
			g := n.g + a.cost
			if b, seen := best[nk]; seen && b <= g {
				continue
			}
			best[nk] = g
			seq++
			heap.Push(open, &baseNode{state: next, g: g, f: g + h(next), depth: n.depth + 1, seq: seq, parent: n, action: i})
		}
	}
	return nil, 0, false
}

// mapCond is a compiled baseline condition.
type mapCond func(MapState) bool

// mapTerm is one operand: a variable's value or a literal.
type mapTerm func(MapState) any

// mapAssign is one assignment: target = sum of signed terms (one term
// with sign +1 is a plain copy).
type mapAssign struct {
	target string
	terms  []mapTerm
	signs  []float64
}

// applyMapEffects writes the effects computed from src into dst (both
// hold every variable; src is not changed).
func applyMapEffects(effects []mapAssign, src, dst MapState) {
	for _, e := range effects {
		if len(e.terms) == 1 && e.signs[0] > 0 {
			dst[e.target] = e.terms[0](src)
			continue
		}
		var sum float64
		for i, t := range e.terms {
			f, _ := t(src).(float64)
			sum += e.signs[i] * f
		}
		dst[e.target] = sum
	}
}

// EvalMapCond compiles cond with the baseline's interpreter and returns
// it as a function of a MapState over vars, for the guard's references.
func EvalMapCond(cond string, vars []string) (func(MapState) bool, error) {
	known := map[string]bool{}
	for _, v := range vars {
		known[v] = true
	}
	c, err := parseMapCond(cond, known)
	if err != nil {
		return nil, fmt.Errorf("bench: baseline: %w", err)
	}
	return c, nil
}

// ApplyMapEffects compiles effects with the baseline's interpreter and
// returns a function that writes them, computed from src, into dst.
func ApplyMapEffects(effects string, vars []string) (func(src, dst MapState), error) {
	known := map[string]bool{}
	for _, v := range vars {
		known[v] = true
	}
	e, err := parseMapEffects(effects, known)
	if err != nil {
		return nil, fmt.Errorf("bench: baseline: %w", err)
	}
	return func(src, dst MapState) { applyMapEffects(e, src, dst) }, nil
}

// mapParser is a recursive-descent reader over space-separated tokens.
type mapParser struct {
	toks  []string
	pos   int
	known map[string]bool
	src   string
}

func tokenize(src string) ([]string, error) {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated string in %q", src)
			}
			toks = append(toks, src[i:i+j+2])
			i += j + 2
		case i+1 < len(src) && slices.Contains([]string{"&&", "||", "==", "!=", "<=", ">="}, src[i:i+2]):
			toks = append(toks, src[i:i+2])
			i += 2
		case strings.ContainsRune("!<>()+-,=", rune(c)):
			toks = append(toks, src[i:i+1])
			i++
		case c == '.' || c == '_' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)):
			j := i
			for j < len(src) && (src[j] == '.' || src[j] == '_' || unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j]))) {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q in %q", c, src)
		}
	}
	return toks, nil
}

func (p *mapParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *mapParser) next() string { t := p.peek(); p.pos++; return t }

func parseMapCond(src string, known map[string]bool) (mapCond, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &mapParser{toks: toks, known: known, src: src}
	c, err := p.or()
	if err == nil && p.pos != len(p.toks) {
		err = fmt.Errorf("unexpected %q in %q", p.peek(), src)
	}
	return c, err
}

func (p *mapParser) or() (mapCond, error) {
	l, err := p.and()
	for err == nil && p.peek() == "||" {
		p.next()
		var r mapCond
		if r, err = p.and(); err == nil {
			a, b := l, r
			l = func(s MapState) bool { return a(s) || b(s) }
		}
	}
	return l, err
}

func (p *mapParser) and() (mapCond, error) {
	l, err := p.unary()
	for err == nil && p.peek() == "&&" {
		p.next()
		var r mapCond
		if r, err = p.unary(); err == nil {
			a, b := l, r
			l = func(s MapState) bool { return a(s) && b(s) }
		}
	}
	return l, err
}

func (p *mapParser) unary() (mapCond, error) {
	switch p.peek() {
	case "!":
		p.next()
		c, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(s MapState) bool { return !c(s) }, nil
	case "(":
		p.next()
		c, err := p.or()
		if err == nil && p.next() != ")" {
			err = fmt.Errorf("missing ) in %q", p.src)
		}
		return c, err
	}
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	op := p.peek()
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		p.next()
	default:
		return func(s MapState) bool { return l(s) == true }, nil
	}
	r, err := p.term()
	if err != nil {
		return nil, err
	}
	return func(s MapState) bool { return compareAny(l(s), op, r(s)) }, nil
}

// compareAny compares two values: numbers by value, other kinds by ==
// and != only; a missing variable (nil) meets no comparison but != .
func compareAny(a any, op string, b any) bool {
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok {
			switch op {
			case "==":
				return x == y
			case "!=":
				return x != y
			case "<":
				return x < y
			case "<=":
				return x <= y
			case ">":
				return x > y
			default:
				return x >= y
			}
		}
	}
	switch op {
	case "==":
		return a != nil && a == b
	case "!=":
		return a != b
	}
	return false
}

// term reads a literal or a variable; a word that is not a state variable
// is a string, as in moonmind's effects.
func (p *mapParser) term() (mapTerm, error) {
	t := p.next()
	neg := false
	if t == "-" {
		neg, t = true, p.next()
	}
	if t == "" {
		return nil, fmt.Errorf("missing operand in %q", p.src)
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		if neg {
			f = -f
		}
		return func(MapState) any { return f }, nil
	}
	if neg {
		return nil, fmt.Errorf("- before %q in %q", t, p.src)
	}
	var lit any
	switch {
	case t[0] == '"' || t[0] == '\'':
		lit = t[1 : len(t)-1]
	case t == "true":
		lit = true
	case t == "false":
		lit = false
	case t == "nil":
		lit = nil
	case p.known[t]:
		name := t
		return func(s MapState) any { return s[name] }, nil
	default:
		lit = t
	}
	return func(MapState) any { return lit }, nil
}

func parseMapEffects(src string, known map[string]bool) ([]mapAssign, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &mapParser{toks: toks, known: known, src: src}
	var out []mapAssign
	for p.pos < len(p.toks) {
		target := p.next()
		if !known[target] || p.next() != "=" {
			return nil, fmt.Errorf("want variable = value in %q", src)
		}
		a := mapAssign{target: target}
		sign := 1.0
		for {
			t, err := p.term()
			if err != nil {
				return nil, err
			}
			a.terms, a.signs = append(a.terms, t), append(a.signs, sign)
			if op := p.peek(); op == "+" || op == "-" {
				p.next()
				sign = 1
				if op == "-" {
					sign = -1
				}
				continue
			}
			break
		}
		out = append(out, a)
		if p.peek() == "," {
			p.next()
		} else if p.pos < len(p.toks) {
			return nil, fmt.Errorf("unexpected %q in %q", p.peek(), src)
		}
	}
	return out, nil
}
