package main

import (
	"fmt"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"io"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
)

func init() {
	commands["graph"] = command{usage: "graph FILE",
		what: "print the role's goals, actions and variables as a Graphviz DOT graph", run: graphCmd}
}

// graphCmd prints a role as a DOT graph: a box per action, an ellipse per
// goal, a note per state variable; an edge from a variable to each action
// whose precondition reads it (dashed), from an action to each variable its
// effects assign, from a variable to each goal whose condition reads it, and
// from an action to each goal it fulfills (bold). Render it with
// `dot -Tpng`.
func graphCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("graph", stderr)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	rt, d, _, code := loadWithState("graph", pos, nil, stderr)
	if code != 0 {
		return code
	}
	defer rt.Close()
	writeDOT(stdout, d)
	return 0
}

func writeDOT(w io.Writer, d *engine.Domain) {
	q := strconv.Quote
	fmt.Fprintf(w, "digraph %s {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n", q(d.Name))
	used := make([]bool, d.Schema.Len())
	for _, a := range d.Actions {
		for _, s := range a.Pre.Reads() {
			used[s] = true
		}
		for _, s := range a.Effects.Writes() {
			used[s] = true
		}
	}
	for _, g := range d.Goals {
		for _, s := range g.Condition.Reads() {
			used[s] = true
		}
	}
	for i, name := range d.Schema.Names() {
		if used[i] {
			fmt.Fprintf(w, "  %s [shape=note, label=%s];\n", q("var:"+name), q(name+" = "+d.Initial[i].String()))
		}
	}
	for _, g := range d.Goals {
		fmt.Fprintf(w, "  %s [shape=ellipse, style=filled, fillcolor=\"#ffe9a8\", label=%s];\n",
			q("goal:"+g.Name), q(g.Name+" ("+g.Priority.String()+")\n"+g.Condition.Source()))
		for _, s := range g.Condition.Reads() {
			fmt.Fprintf(w, "  %s -> %s;\n", q("var:"+d.Schema.Name(s)), q("goal:"+g.Name))
		}
	}
	for _, a := range d.Actions {
		label := a.Name + " (cost " + expr.FormatNumber(a.Cost) + ")"
		if !a.Effects.IsEmpty() {
			label += "\n" + a.Effects.Source()
		}
		fmt.Fprintf(w, "  %s [shape=box, style=rounded, label=%s];\n", q("act:"+a.Name), q(label))
		for _, s := range a.Pre.Reads() {
			fmt.Fprintf(w, "  %s -> %s [style=dashed, label=\"pre\"];\n", q("var:"+d.Schema.Name(s)), q("act:"+a.Name))
		}
		for _, s := range a.Effects.Writes() {
			fmt.Fprintf(w, "  %s -> %s;\n", q("act:"+a.Name), q("var:"+d.Schema.Name(s)))
		}
		for _, g := range a.Fulfills {
			fmt.Fprintf(w, "  %s -> %s [style=bold, label=\"fulfills\"];\n", q("act:"+a.Name), q("goal:"+g.Name))
		}
	}
	fmt.Fprintln(w, "}")
}
