package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// claimUsage is the help of --claim, which plan and why-not take.
const claimUsage = "have another agent, AGENT, hold a slot of the role's smart object OBJECT (repeatable)"

// claimFlags collects repeated --claim OBJECT=AGENT flags.
type claimFlags []string

func (s *claimFlags) String() string     { return strings.Join(*s, ",") }
func (s *claimFlags) Set(v string) error { *s = append(*s, v); return nil }

// objectWorld is the world plan and why-not plan in when the role declares
// smart objects: its objects, and an agent for each --claim holding the
// object it names. nil when the role declares none and nothing is claimed:
// the commands then plan with the role alone, as before objects.
type objectWorld struct {
	w  *engine.World
	d  *engine.Domain
	st expr.State
}

// newObjectWorld adds d's objects to a new world and makes each claim
// (OBJECT=AGENT) hold: the agent, of a role that only holds objects,
// claims the object in the world's first tick. A claim naming no object,
// or more claims than an object has slots, is an error.
func newObjectWorld(rt *luabind.Runtime, d *engine.Domain, st expr.State, claims []string) (*objectWorld, error) {
	objs, err := rt.Objects(d)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 && len(claims) == 0 {
		return nil, nil
	}
	w := engine.NewWorld(0)
	for _, o := range objs {
		if err := w.AddObject(o); err != nil {
			return nil, err
		}
	}
	want := map[*engine.Agent]*engine.Object{}
	var names []string
	for _, o := range objs {
		names = append(names, o.Name)
	}
	taken := map[*engine.Object]int{}
	for _, c := range claims {
		obj, agent, ok := strings.Cut(c, "=")
		if !ok || obj == "" || agent == "" {
			return nil, fmt.Errorf("--claim %s: want OBJECT=AGENT, such as crate1=blue2", c)
		}
		o := w.Object(obj)
		if o == nil {
			return nil, fmt.Errorf("--claim %s: the role declares no object %q%s", c, obj, engine.DidYouMean(obj, names))
		}
		if taken[o]++; taken[o] > o.Slots {
			return nil, fmt.Errorf("--claim %s: %s offers %s slot(s), all claimed before", c, obj, strconv.Itoa(o.Slots))
		}
		hd, err := holderDomain(o.Kind)
		if err != nil {
			return nil, err
		}
		h := engine.NewAgent(agent, hd)
		want[h] = o
		w.Add(h)
	}
	if len(want) > 0 {
		// Each holder claims its own object: every other costs +Inf.
		w.ObjectCost = func(a *engine.Agent, o *engine.Object) float64 {
			if want[a] == o {
				return 0
			}
			return math.Inf(1)
		}
		w.Tick(0)
		w.ObjectCost = nil
		for h, o := range want {
			if h.Holds() != o {
				return nil, fmt.Errorf("--claim %s=%s: the claim could not be made", o.Name, h.Name)
			}
		}
	}
	return &objectWorld{w: w, d: d, st: st}, nil
}

// planner returns a new agent's planner in the world, at the state given,
// with MaxDepth depth: it plans around the objects it may not claim.
func (ow *objectWorld) planner(depth int) *engine.Planner {
	a := newAgent("cli", ow.d)
	copy(a.State, ow.st)
	ow.w.Add(a)
	p := a.Planner()
	p.MaxDepth = depth
	return p
}

// object is the object a step of act would claim now: the first added of
// its kind with a free slot, or "" when act uses none or none is free.
func (ow *objectWorld) object(act *engine.Action) string {
	if ow == nil || act.Uses == "" {
		return ""
	}
	for _, o := range ow.w.Objects() {
		if o.Kind == act.Uses && len(o.Holders()) < o.Slots {
			return o.Name
		}
	}
	return ""
}

// stepsText is the plan's steps, each that uses an object followed by the
// object it would claim: "fetch (crate1), reload".
func (ow *objectWorld) stepsText(steps []*engine.Action) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = s.Name
		if o := ow.object(s); o != "" {
			parts[i] += " (" + o + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// objectsOf is the object each step would claim, "" for none; nil when no
// step uses one.
func (ow *objectWorld) objectsOf(steps []*engine.Action) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = ow.object(s)
	}
	if !slices.ContainsFunc(out, func(s string) bool { return s != "" }) {
		return nil
	}
	return out
}

// holdBody is the body of a --claim agent's one action: it never ends.
type holdBody struct{}

func (holdBody) Start(*engine.Agent, *engine.Action) (engine.Task, error) { return holdTask{}, nil }

type holdTask struct{}

func (holdTask) Resume(float64) (engine.Status, error) { return engine.Running, nil }
func (holdTask) Interrupt()                            {}

// holderDomain is the role of a --claim agent: one action that uses kind
// and runs until the command ends.
func holderDomain(kind string) (*engine.Domain, error) {
	spec := engine.NewAction("hold").Effects("held = true").Body(holdBody{}).Spec()
	spec.Uses = kind
	return engine.Compile(engine.RoleSpec{
		Name:    "Holder",
		State:   []engine.Var{{Name: "held", Value: expr.BoolValue(false)}},
		Goals:   []engine.GoalSpec{engine.NewGoal("hold", "held", engine.Normal)},
		Actions: []engine.ActionSpec{spec},
	})
}

// objectFindings checks the actions that use a kind of smart object
// against the objects the role declares: a kind none of them has is a
// warning (a typo, or an object the game must add), and when the role
// declares no object at all, a note (the game adds them).
func objectFindings(d *engine.Domain, objs []*engine.Object, fields fieldFinder) []finding {
	var kinds []string
	for _, o := range objs {
		if !slices.Contains(kinds, o.Kind) {
			kinds = append(kinds, o.Kind)
		}
	}
	var out []finding
	for _, a := range d.Actions {
		k := a.Uses
		if k == "" || slices.Contains(kinds, k) {
			continue
		}
		at := fields.find(a.Pos, "uses")
		if len(objs) == 0 {
			out = append(out, finding{at, "note", fmt.Sprintf("action %q uses a %s: the role declares no objects (objects = { ... }), so it is planned only in a game that adds a %s", a.Name, k, k), "no-object:" + k})
			continue
		}
		out = append(out, finding{at, "warning", fmt.Sprintf("action %q uses a %s, and no object the role declares is of that kind%s: it is planned only in a game that adds one", a.Name, k, engine.DidYouMean(k, kinds)), "unknown-kind:" + k})
	}
	return out
}
