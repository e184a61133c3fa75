package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
)

func init() {
	commands["plan"] = command{what: "print the GOAP plan for a role at its initial state (changed by --state)",
		usage: "plan FILE [--state k=v]... [--goal NAME] [--max-depth N] [--no-chaining] [--json]",
		run:   planCmd,
	}
}

type planJSON struct {
	Role  string         `json:"role"`
	Plan  []string       `json:"plan"`
	Cost  float64        `json:"cost"`
	Goals []goalPlanJSON `json:"goals"`
}

type goalPlanJSON struct {
	Goal  string   `json:"goal"`
	Steps []string `json:"steps"`
}

type planFailJSON struct {
	Role  string        `json:"role"`
	Error planErrorJSON `json:"error"`
}

type planErrorJSON struct {
	Reason       string `json:"reason"`
	Goal         string `json:"goal"`
	Action       string `json:"action"`
	Precondition string `json:"precondition"`
	MaxDepth     int    `json:"maxDepth"`
	Message      string `json:"message"`
}

func planCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("plan", stderr)
	var states stateFlags
	fs.Var(&states, "state", "set a state variable, name=value (repeatable)")
	goal := fs.String("goal", "", "plan only this goal")
	depth := fs.Int("max-depth", engine.DefaultMaxDepth, "most steps per goal (1..256)")
	noChain := fs.Bool("no-chaining", false, "plan a goal only with an action that can run now")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if *depth < 1 || *depth > engine.MaxMaxDepth {
		fmt.Fprintf(stderr, "moonmind plan: --max-depth must be in 1..%d, not %d\n", engine.MaxMaxDepth, *depth)
		return 2
	}
	rt, d, st, code := loadWithState("plan", pos, states, stderr)
	if code != 0 {
		return code
	}
	defer rt.Close()
	if *goal != "" && d.Goal(*goal) == nil {
		fmt.Fprintf(stderr, "moonmind plan: --goal %s: the role has no goal %q%s\n", *goal, *goal,
			engine.DidYouMean(*goal, d.GoalNames()))
		return 2
	}
	pl := engine.NewPlanner(d, *depth)
	pl.Chaining = !*noChain
	var p *engine.Plan
	if *goal != "" {
		p, err = pl.PlanGoal(*goal, st)
	} else {
		p, err = pl.Plan(st)
	}
	if err != nil {
		var pe *engine.PlanError
		if !errors.As(err, &pe) {
			fmt.Fprintln(stderr, err)
			return 2
		}
		if *asJSON {
			writeJSON(stdout, planFailJSON{Role: d.Name, Error: planErrorJSON{Reason: string(pe.Reason), Goal: pe.Goal,
				Action: pe.Action, Precondition: pe.Precondition, MaxDepth: pe.MaxDepth, Message: pe.Error()}})
		} else {
			fmt.Fprintf(stdout, "role %s: no plan\n%s\n", d.Name, pe.Error())
		}
		return 1
	}
	if *asJSON {
		out := planJSON{Role: d.Name, Plan: p.Names(), Cost: p.Cost, Goals: []goalPlanJSON{}}
		for _, g := range p.Goals {
			out.Goals = append(out.Goals, goalPlanJSON{Goal: g.Goal.Name, Steps: names(g.Steps)})
		}
		writeJSON(stdout, out)
		return 0
	}
	fmt.Fprintf(stdout, "role %s\n", d.Name)
	if len(p.Goals) == 0 {
		fmt.Fprintln(stdout, "every goal is satisfied: nothing to do")
		return 0
	}
	for _, g := range p.Goals {
		fmt.Fprintf(stdout, "goal %s (%s): %s  [cost %s]\n", g.Goal.Name, g.Goal.Priority, strings.Join(names(g.Steps), ", "), engine.FormatNumber(g.Cost))
	}
	fmt.Fprintf(stdout, "plan: %s  [cost %s]\n", strings.Join(p.Names(), ", "), engine.FormatNumber(p.Cost))
	return 0
}

func names(as []*engine.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
