package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/perception"
	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["graph"] = command{usage: "graph FILE [--goal NAME] [--format dot|mermaid]",
		what: "print the role's goals, actions, state variables, considerations, sensors and reactive plans as a graph (Graphviz DOT or Mermaid)",
		run:  graphCmd}
}

// graphCmd prints a role as a graph: a box per action, an ellipse per
// goal, a note per state variable, a hexagon per sensor, a component per
// reactive plan. Edges: a variable to each action whose precondition
// reads it (dashed, "pre") and to each action a consideration of which
// reads it (dotted, the consideration's name); an action to each variable
// its effects assign and to each goal it fulfills (bold); a variable to
// each goal whose condition reads it; a sensor to each variable it writes;
// a goal or a belief to each plan it triggers; a plan to the variables its
// functions write and the goals they ask for; an action to the variables
// its body writes beyond its effects (dotted, "body"); a variable to each
// named condition whose test reads it (dotted, "tests"). What sensors,
// plans and bodies write is read from their Lua source (luabind.Scan). A node with no edge says why
// in its label. --goal keeps what can lead to that goal.
func graphCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("graph", stderr)
	goal := fs.String("goal", "", "only the nodes that can lead to this goal")
	format := fs.String("format", "dot", "dot (Graphviz) or mermaid")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if *format != "dot" && *format != "mermaid" {
		fmt.Fprintf(stderr, "moonmind graph: --format %s: expected dot or mermaid%s\n", *format, engine.DidYouMean(*format, []string{"dot", "mermaid"}))
		return 2
	}
	rt, d, _, code := loadWithState("graph", pos, nil, stderr)
	if code != 0 {
		return code
	}
	defer rt.Close()
	g := buildGraph(d, newScans())
	if *goal != "" {
		if d.Goal(*goal) == nil {
			fmt.Fprintf(stderr, "moonmind graph: --goal %s: the role has no such goal%s\n", *goal, engine.DidYouMean(*goal, d.GoalNames()))
			return 2
		}
		g = g.leadingTo("goal:" + *goal)
	}
	g.note()
	if *format == "mermaid" {
		g.writeMermaid(stdout)
	} else {
		g.writeDOT(stdout)
	}
	return 0
}

// node kinds, which decide a node's shape.
const (
	nodeVar = iota
	nodeGoal
	nodeAction
	nodeSensor
	nodePlan
	nodeStart
)

type graphNode struct {
	id, label string
	kind      int
	lonely    string // why the node has no edge, shown when it has none
}

// edge styles
const (
	edgePlain = iota
	edgePre
	edgeFulfills
	edgeConsider
	edgeTrigger
	edgeBody
)

type graphEdge struct {
	from, to string
	style    int
	label    string
}

// roleGraph is a role as nodes and edges, in declaration order.
type roleGraph struct {
	name  string
	nodes []*graphNode
	byID  map[string]*graphNode
	edges []graphEdge
	seen  map[graphEdge]bool
}

func (g *roleGraph) add(n *graphNode) *graphNode {
	if old := g.byID[n.id]; old != nil {
		return old
	}
	g.byID[n.id] = n
	g.nodes = append(g.nodes, n)
	return n
}

func (g *roleGraph) edge(e graphEdge) {
	if !g.seen[e] {
		g.seen[e] = true
		g.edges = append(g.edges, e)
	}
}

// scans parses each role file once, for what sensors and plans write.
type scans map[string]*luabind.Scan

func newScans() scans { return scans{} }

// entry returns what the entry at pos (named name, or "") writes and asks
// for; ok is false when its source says nothing readable.
func (s scans) entry(pos engine.Pos, name string) (luabind.Touches, bool) {
	sc, done := s[pos.File]
	if !done {
		sc, _ = luabind.ScanFile(pos.File)
		s[pos.File] = sc
	}
	if sc == nil {
		return luabind.Touches{}, false
	}
	return sc.Entry(pos.Line, name)
}

func buildGraph(d *engine.Domain, sc scans) *roleGraph {
	g := &roleGraph{name: d.Name, byID: map[string]*graphNode{}, seen: map[graphEdge]bool{}}
	varID := func(slot int) string { return "var:" + d.Schema.Name(slot) }
	for i, name := range d.Schema.Names() {
		g.add(&graphNode{id: "var:" + name, kind: nodeVar, label: name + " = " + d.Initial[i].String(),
			lonely: "nothing in the role reads or writes it; the game's sensors may"})
	}
	for _, c := range d.Conditions {
		n := g.byID[varID(c.Slot)]
		n.label = c.Name + " (named condition)"
		n.lonely = "no goal, action or plan reads it"
		t, _ := sc.entry(c.Pos, c.Name)
		for _, v := range t.Reads {
			if slot, ok := d.Schema.Lookup(v); ok && slot != c.Slot {
				g.edge(graphEdge{from: varID(slot), to: varID(c.Slot), style: edgeConsider, label: "tests"})
			}
		}
	}
	goalNode := func(name string) string {
		id := "goal:" + name
		if g.byID[id] == nil {
			g.add(&graphNode{id: id, kind: nodeGoal, label: name + " (reactive plans only)"})
		}
		return id
	}
	for _, gl := range d.Goals {
		g.add(&graphNode{id: "goal:" + gl.Name, kind: nodeGoal, label: gl.Name + " (" + gl.Priority.String() + ")\n" + gl.Condition.Source(),
			lonely: "its condition reads no variable and no action fulfills it"})
		for _, s := range gl.Condition.Reads() {
			g.edge(graphEdge{from: varID(s), to: "goal:" + gl.Name})
		}
	}
	for _, a := range d.Actions {
		label := a.Name + " (cost " + expr.ShortNumber(a.Cost) + ")"
		if !a.Effects.IsEmpty() {
			label += "\n" + a.Effects.Source()
		}
		id := "act:" + a.Name
		g.add(&graphNode{id: id, kind: nodeAction, label: label,
			lonely: "no precondition, no effects, fulfills no goal: only the utility planner can choose it"})
		for _, s := range a.Pre.Reads() {
			g.edge(graphEdge{from: varID(s), to: id, style: edgePre, label: "pre"})
		}
		cons := a.Considerations
		if cons == nil {
			cons = d.Considerations
		}
		forInputs(cons, func(c engine.Consideration) {
			if c.Slot >= 0 && c.Slot < d.Schema.Len() {
				g.edge(graphEdge{from: varID(c.Slot), to: id, style: edgeConsider, label: c.Name})
			}
		})
		for _, s := range a.Effects.Writes() {
			g.edge(graphEdge{from: id, to: varID(s)})
		}
		for _, gl := range a.Fulfills {
			g.edge(graphEdge{from: id, to: "goal:" + gl.Name, style: edgeFulfills, label: "fulfills"})
		}
		// What the body writes beyond its effects (no promise the planner
		// knows of).
		t, _ := sc.entry(a.Pos, a.Name)
		for _, v := range t.Writes {
			if slot, ok := d.Schema.Lookup(v); ok && !slices.Contains(a.Effects.Writes(), slot) {
				g.edge(graphEdge{from: id, to: "var:" + v, style: edgeBody, label: "body"})
			}
		}
	}
	for _, s := range d.Sensors {
		id := "sensor:" + s.Name
		label := "sensor " + s.Name
		if s.Every > 0 {
			label += " (every " + expr.FormatNumber(s.Every) + " s)"
		}
		if s.Pos == (engine.Pos{}) && s.Name == "memory" {
			// The engine's sensor that fills the memory.<source>.<field>
			// variables the role reads from the perception memory.
			g.add(&graphNode{id: id, kind: nodeSensor, label: "the perception memory", lonely: "the role reads none of it"})
			for _, v := range d.Schema.Names() {
				if strings.HasPrefix(v, perception.Prefix) {
					g.edge(graphEdge{from: id, to: "var:" + v})
				}
			}
			continue
		}
		t, ok := sc.entry(s.Pos, s.Name)
		n := g.add(&graphNode{id: id, kind: nodeSensor, label: label, lonely: "its source writes no state variable by name"})
		if !ok {
			n.lonely = "its run function is not in the role file, so what it writes is unknown"
		}
		if t.Dynamic {
			n.label += "\n(also writes variables by computed names)"
		}
		for _, v := range t.Writes {
			if _, known := d.Schema.Lookup(v); known {
				g.edge(graphEdge{from: id, to: "var:" + v})
			}
		}
		for _, v := range t.Reads {
			if _, known := d.Schema.Lookup(v); known {
				g.edge(graphEdge{from: "var:" + v, to: id, style: edgeConsider, label: "reads"})
			}
		}
	}
	if d.NewReactive != nil {
		if m := bdi.Of(engine.NewAgent("graph", d)); m != nil {
			cfg := m.Config()
			for _, gv := range cfg.InitialGoals {
				if name := gv.Name(); name != "" {
					g.add(&graphNode{id: "start", kind: nodeStart, label: "start"})
					g.edge(graphEdge{from: "start", to: goalNode(name), style: edgeTrigger, label: "initial goal"})
				}
			}
			if cfg.Library != nil {
				for i, p := range cfg.Library.Plans() {
					addPlan(g, d, sc, i, p, goalNode)
				}
			}
		}
	}
	return g
}

// addPlan adds reactive plan number i (from 0, in library order).
func addPlan(g *roleGraph, d *engine.Domain, sc scans, i int, p *bdi.Plan, goalNode func(string) string) {
	name := p.Name
	if name == "" {
		name = "#" + strconv.Itoa(i+1)
	}
	id := "plan:" + strconv.Itoa(i+1)
	label := "plan " + name + "\non " + p.On.String()
	switch {
	case p.Goal != "":
		label += " goal=" + p.Goal
	case p.Belief != "":
		label += " belief=" + p.Belief
	}
	if p.Guard != nil {
		label += " (guard)"
	}
	n := g.add(&graphNode{id: id, kind: nodePlan, label: label,
		lonely: "on every " + p.On.String() + " event; its body writes no variable by name and asks for no goal"})
	on := "on " + p.On.String()
	switch {
	case p.Goal != "":
		g.edge(graphEdge{from: goalNode(p.Goal), to: id, style: edgeTrigger, label: on})
	case p.Belief != "":
		if _, ok := d.Schema.Lookup(p.Belief); ok {
			g.edge(graphEdge{from: "var:" + p.Belief, to: id, style: edgeTrigger, label: on})
		}
	}
	t, _ := sc.entry(p.Pos, p.Name)
	if t.Dynamic {
		n.label += "\n(also writes variables by computed names)"
	}
	for _, v := range t.Writes {
		if _, ok := d.Schema.Lookup(v); ok {
			g.edge(graphEdge{from: id, to: "var:" + v})
		}
	}
	for _, a := range t.Achieves {
		g.edge(graphEdge{from: id, to: goalNode(a), label: "achieve"})
	}
}

// forInputs calls f for every consideration that reads a state variable,
// within combine(...) too.
func forInputs(cs []engine.Consideration, f func(engine.Consideration)) {
	for _, c := range cs {
		if c.Kind == engine.ConsiderInput {
			f(c)
		}
		forInputs(c.Of, f)
	}
}

// leadingTo keeps the nodes from which an edge path reaches id, and the
// edges between them.
func (g *roleGraph) leadingTo(id string) *roleGraph {
	keep := map[string]bool{id: true}
	for changed := true; changed; {
		changed = false
		for _, e := range g.edges {
			if keep[e.to] && !keep[e.from] {
				keep[e.from] = true
				changed = true
			}
		}
	}
	out := &roleGraph{name: g.name, byID: map[string]*graphNode{}, seen: map[graphEdge]bool{}}
	for _, n := range g.nodes {
		if keep[n.id] {
			out.add(n)
		}
	}
	for _, e := range g.edges {
		if keep[e.from] && keep[e.to] {
			out.edge(e)
		}
	}
	return out
}

// note adds to the label of every node without an edge why it has none.
func (g *roleGraph) note() {
	linked := map[string]bool{}
	for _, e := range g.edges {
		linked[e.from], linked[e.to] = true, true
	}
	for _, n := range g.nodes {
		if !linked[n.id] && n.lonely != "" {
			n.label += "\n(unconnected: " + n.lonely + ")"
		}
	}
}

func (g *roleGraph) writeDOT(w io.Writer) {
	q := strconv.Quote
	fmt.Fprintf(w, "digraph %s {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n", q(g.name))
	shapes := map[int]string{
		nodeVar:    "shape=note",
		nodeGoal:   "shape=ellipse, style=filled, fillcolor=\"#ffe9a8\"",
		nodeAction: "shape=box, style=rounded",
		nodeSensor: "shape=hexagon, style=filled, fillcolor=\"#d7ecff\"",
		nodePlan:   "shape=component, style=filled, fillcolor=\"#e3f5d8\"",
		nodeStart:  "shape=circle",
	}
	for _, n := range g.nodes {
		fmt.Fprintf(w, "  %s [%s, label=%s];\n", q(n.id), shapes[n.kind], q(n.label))
	}
	for _, e := range g.edges {
		var attrs string
		switch e.style {
		case edgePre:
			attrs = "style=dashed, label=" + q(e.label)
		case edgeFulfills:
			attrs = "style=bold, label=" + q(e.label)
		case edgeConsider:
			attrs = "style=dotted, label=" + q(e.label)
		case edgeTrigger:
			attrs = "color=\"#3a7d2c\", label=" + q(e.label)
		case edgeBody:
			attrs = "style=dotted, color=\"#777777\", label=" + q(e.label)
		default:
			if e.label != "" {
				attrs = "label=" + q(e.label)
			}
		}
		if attrs != "" {
			attrs = " [" + attrs + "]"
		}
		fmt.Fprintf(w, "  %s -> %s%s;\n", q(e.from), q(e.to), attrs)
	}
	fmt.Fprintln(w, "}")
}

// writeMermaid prints the graph as a Mermaid flowchart: node ids are n1,
// n2... in declaration order, labels quoted with Mermaid's entities.
func (g *roleGraph) writeMermaid(w io.Writer) {
	ids := map[string]string{}
	for i, n := range g.nodes {
		ids[n.id] = "n" + strconv.Itoa(i+1)
	}
	// Mermaid reads a label as HTML: a name with "<" or "&" would be
	// markup, not text.
	entities := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", "&", "#amp;")
	label := func(s string) string {
		return `"` + strings.ReplaceAll(entities.Replace(s), "\n", "<br/>") + `"`
	}
	fmt.Fprintf(w, "---\ntitle: %s\n---\nflowchart LR\n", yamlScalar(g.name))
	shapes := map[int][2]string{
		nodeVar: {"[/", "/]"}, nodeGoal: {"([", "])"}, nodeAction: {"(", ")"},
		nodeSensor: {"{{", "}}"}, nodePlan: {"[[", "]]"}, nodeStart: {"((", "))"},
	}
	for _, n := range g.nodes {
		s := shapes[n.kind]
		fmt.Fprintf(w, "  %s%s%s%s\n", ids[n.id], s[0], label(n.label), s[1])
	}
	for _, e := range g.edges {
		arrow := "-->"
		switch e.style {
		case edgePre, edgeConsider, edgeBody:
			arrow = "-.->"
		case edgeFulfills:
			arrow = "==>"
		}
		if e.label != "" {
			arrow += "|" + label(e.label) + "|"
		}
		fmt.Fprintf(w, "  %s %s %s\n", ids[e.from], arrow, ids[e.to])
	}
}

// yamlScalar returns s as a YAML scalar for Mermaid's front matter: as it
// is when YAML reads it back the same, else double-quoted ("a: b" would be
// a mapping, "Squad #2" would lose its comment).
func yamlScalar(s string) string {
	if s != "" && s == strings.TrimSpace(s) && !strings.ContainsAny(s, ":#\"'[]{},&*!|>%@`\\") && !strings.ContainsAny(s[:1], "-?") {
		return s
	}
	return strconv.Quote(s)
}
