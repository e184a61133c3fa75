package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"

	"github.com/moonmind-ai/moonmind/engine"
)

func init() {
	commands["plan"] = command{what: "print the GOAP plan for a role at its initial state (changed by --state)",
		usage: "plan FILE [--state k=v]... [--authority NAME]... [--claim OBJECT=AGENT]... [--goal NAME] [--max-depth N] [--no-chaining] [--json]",
		run:   planCmd,
	}
}

type planJSON struct {
	Role  string         `json:"role"`
	Plan  []string       `json:"plan"`
	Cost  float64        `json:"cost"`
	Goals []goalPlanJSON `json:"goals"`
	// Error is the first goal's failure, highest priority first, when a
	// goal has no plan.
	Error *planErrorJSON `json:"error,omitempty"`
}

type goalPlanJSON struct {
	Goal  string   `json:"goal"`
	Steps []string `json:"steps"`
	// Objects is, when a step uses a smart object, the object each step
	// would claim now ("" for a step that uses none).
	Objects []string       `json:"objects,omitempty"`
	Error   *planErrorJSON `json:"error,omitempty"`
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
	Authority    string `json:"authority,omitempty"`
	MaxDepth     int    `json:"maxDepth"`
	Message      string `json:"message"`
}

func planErrJSON(pe *engine.PlanError) *planErrorJSON {
	return &planErrorJSON{Reason: string(pe.Reason), Goal: pe.Goal, Action: pe.Action, Precondition: pe.Precondition,
		Authority: pe.Authority, MaxDepth: pe.MaxDepth, Message: pe.Error()}
}

// authorityFlags collects repeated --authority NAME flags.
type authorityFlags []string

func (s *authorityFlags) String() string     { return strings.Join(*s, ",") }
func (s *authorityFlags) Set(v string) error { *s = append(*s, v); return nil }

func planCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("plan", stderr)
	var states stateFlags
	var auths authorityFlags
	var claims claimFlags
	fs.Var(&states, "state", stateUsage)
	fs.Var(&auths, "authority", "grant an authority that secured actions need (repeatable)")
	fs.Var(&claims, "claim", claimUsage)
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
	ow, err := newObjectWorld(rt, d, st, claims)
	if err != nil {
		fmt.Fprintf(stderr, "moonmind plan: %v\n", err)
		return 2
	}
	pl := depthPlanner(d, *depth)
	if ow != nil {
		pl = ow.planner(*depth) // plans around the objects it may not claim
	}
	pl.Chaining = !*noChain
	pl.Policy = &engine.Policy{Authorities: auths}
	var outcomes []engine.GoalOutcome
	if *goal != "" {
		outcomes = planOneGoal(pl, d.Goal(*goal), st)
	} else {
		outcomes = pl.PlanEach(st)
	}
	// Every goal is shown: its plan, or why it has none. The exit status
	// is 1 when any goal has no plan.
	out := planJSON{Role: d.Name, Plan: []string{}, Goals: []goalPlanJSON{}}
	code = 0
	var all []*engine.Action
	for _, o := range outcomes {
		gj := goalPlanJSON{Steps: names(o.Steps), Objects: ow.objectsOf(o.Steps)}
		if o.Goal != nil {
			gj.Goal = o.Goal.Name
		} else {
			gj.Goal = o.Err.Goal
		}
		if o.Err != nil {
			gj.Error = planErrJSON(o.Err)
			if out.Error == nil {
				out.Error = gj.Error
			}
			code = 1
		} else {
			out.Plan = append(out.Plan, gj.Steps...)
			all = append(all, o.Steps...)
			out.Cost += o.Cost
		}
		out.Goals = append(out.Goals, gj)
	}
	if *asJSON {
		writeJSON(stdout, out)
		return code
	}
	fmt.Fprintf(stdout, "role %s\n", d.Name)
	if len(outcomes) == 0 {
		fmt.Fprintln(stdout, "every goal is satisfied: nothing to do")
		return 0
	}
	for _, o := range outcomes {
		if o.Err != nil {
			prio := ""
			if o.Goal != nil {
				prio = " (" + o.Goal.Priority.String() + ")"
			}
			fmt.Fprintf(stdout, "goal %s%s: no plan: %s\n", o.Err.Goal, prio, o.Err.Message())
			continue
		}
		fmt.Fprintf(stdout, "goal %s (%s): %s  [cost %s]\n", o.Goal.Name, o.Goal.Priority, ow.stepsText(o.Steps), expr.ShortNumber(o.Cost))
	}
	if len(out.Plan) == 0 {
		fmt.Fprintln(stdout, "plan: none")
	} else {
		fmt.Fprintf(stdout, "plan: %s  [cost %s]\n", ow.stepsText(all), expr.ShortNumber(out.Cost))
	}
	return code
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

// depthPlanner is engine.NewPlanner with MaxDepth set.
func depthPlanner(d *engine.Domain, depth int) *engine.Planner {
	p := engine.NewPlanner(d)
	p.MaxDepth = depth
	return p
}

// planOneGoal is the outcome of planning g alone from st: none when g
// already holds.
func planOneGoal(pl *engine.Planner, g *engine.Goal, st expr.State) []engine.GoalOutcome {
	if g.Satisfied(st) {
		return nil
	}
	p, err := pl.PlanFor(g, st)
	if err != nil {
		var pe *engine.PlanError
		if !errors.As(err, &pe) {
			pe = &engine.PlanError{Reason: engine.Unreachable, Goal: g.Name, MaxDepth: pl.MaxDepth, Detail: err.Error()}
		}
		return []engine.GoalOutcome{{Goal: g, Err: pe}}
	}
	return []engine.GoalOutcome{{Goal: g, Steps: append([]*engine.Action(nil), p.Steps...), Cost: p.Cost}}
}
