package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
)

func init() {
	commands["utility"] = command{what: "print every applicable action's utility score with its considerations",
		usage: "utility FILE [--state k=v]... [--authority NAME]... [--json]",
		run:   utilityCmd,
	}
}

// utilityJSON is one applicable action in `moonmind utility --json`.
type utilityJSON struct {
	Action         string              `json:"action"`
	Score          float64             `json:"score"`
	Considerations []considerationJSON `json:"considerations"`
	// Refused says why an agent with the --authority flags given may not
	// run the action (a restricted action, a missing authority); an agent
	// picks the best action without it.
	Refused string `json:"refused,omitempty"`
}

// considerationJSON is one consideration's part in a score. Input is null
// when the state variable it reads is missing or not a number.
type considerationJSON struct {
	Name   string   `json:"name"`
	Input  *float64 `json:"input"`
	Output float64  `json:"output"`
	Weight float64  `json:"weight"`
	Error  string   `json:"error,omitempty"`
}

// utilityCmd prints every applicable action of the role at its initial
// state changed by --state, best first, with each consideration's input,
// output and weight, marking those an agent with the --authority flags
// given may not run. Exit 1 when no action applies, 2 on bad input.
func utilityCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("utility", stderr)
	var states stateFlags
	fs.Var(&states, "state", stateUsage)
	var auths authorityFlags
	fs.Var(&auths, "authority", "grant an authority that secured actions need (repeatable)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	rt, d, st, code := loadWithState("utility", pos, states, stderr)
	if code != 0 {
		return code
	}
	defer rt.Close()
	u := engine.NewUtilityPlanner(d)
	u.Explain = true
	_, e := u.Pick(st, nil)
	policy := &engine.Policy{Authorities: auths}
	if *asJSON {
		out := make([]utilityJSON, 0, len(e.Actions))
		for _, ax := range e.Actions {
			j := utilityJSON{Action: ax.Action.Name, Score: ax.Score, Considerations: []considerationJSON{}, Refused: refusedWhy(policy, ax.Action)}
			for _, c := range ax.Considerations {
				cj := considerationJSON{Name: c.Name, Output: c.Output, Weight: c.Weight}
				if !math.IsNaN(c.Input) && !math.IsInf(c.Input, 0) {
					in := c.Input
					cj.Input = &in
				}
				if c.Err != nil {
					cj.Error = c.Err.Error()
				}
				j.Considerations = append(j.Considerations, cj)
			}
			out = append(out, j)
		}
		writeJSON(stdout, out)
	} else {
		printUtility(stdout, d, e, policy)
	}
	if len(e.Actions) == 0 {
		return 1
	}
	return 0
}

// refusedWhy says why policy forbids act, or "".
func refusedWhy(policy *engine.Policy, act *engine.Action) string {
	switch {
	case policy.Permits(act):
		return ""
	case act.Restricted:
		return "restricted: no agent may run it"
	case len(policy.Authorities) == 0:
		return "needs authority \"" + act.Authority + "\", and none is granted"
	}
	return "needs authority \"" + act.Authority + "\", not granted (granted: " + strings.Join(policy.Authorities, ", ") + ")"
}

func printUtility(w io.Writer, d *engine.Domain, e *engine.Explanation, policy *engine.Policy) {
	fmt.Fprintf(w, "role %s, utility mode %s\n", d.Name, e.Mode)
	if len(e.Actions) == 0 {
		fmt.Fprintln(w, "no action applies")
		return
	}
	width := 0
	for _, ax := range e.Actions {
		for _, c := range ax.Considerations {
			width = max(width, len(c.Name))
		}
	}
	picked := ""
	for i, ax := range e.Actions {
		why := refusedWhy(policy, ax.Action)
		if why != "" {
			why = "  (refused: " + why + ")"
		} else if picked == "" && ax.Score > 0 {
			picked = ax.Action.Name
		}
		fmt.Fprintf(w, "%d. %s  score %s%s\n", i+1, ax.Action.Name, short(ax.Score), why)
		for _, c := range ax.Considerations {
			in := short(c.Input)
			if math.IsNaN(c.Input) {
				in = "-"
			}
			line := fmt.Sprintf("     %-*s  input %-8s output %-8s weight %s", width, c.Name, in, short(c.Output), short(c.Weight))
			if c.Err != nil {
				line += "  error: " + c.Err.Error()
			}
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}
	if picked != "" && picked != e.Actions[0].Action.Name {
		fmt.Fprintf(w, "an agent with these authorities picks %s\n", picked)
	}
}

// short formats a number with at most four significant digits.
func short(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }
