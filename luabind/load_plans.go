package luabind

import (
	"errors"
	"regexp"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/reactive"
)

// rolePlans are the reactive plans and initial goals of one role file,
// its parents' after its own.
type rolePlans struct {
	plans   []*bdi.Plan
	initial []reactive.Goal
	quiet   bool // quiet_beliefs: see bdi.Config.QuietBeliefs
}

var planKeys = []string{"name", "on", "goal", "belief", "source", "trigger", "guard", "body"}

// readPlans reads the role table's plans and initial_goals.
func (rd *roleReader) readPlans(t *lua.LTable) *rolePlans {
	rp := &rolePlans{}
	top := engine.Pos{File: rd.file, Line: 1, Col: 1}
	at := rd.find(top, `plans\s*=`)
	for i, pt := range rd.list(t, "plans", top) {
		p := rd.plan(pt, i, at)
		if p.Pos.File == rd.file {
			at = after(at, p.Pos)
		}
		rp.plans = append(rp.plans, p)
	}
	rp.quiet = rd.boolean(t, "quiet_beliefs", "role", top)
	switch ig := t.RawGetString("initial_goals").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		gat := rd.find(top, `initial_goals\s*=`)
		for i, n := 1, ig.Len(); i <= n; i++ {
			g, err := toGoal(ig.RawGetInt(i))
			if err != nil {
				rd.add(gat, "role: initial_goals["+itoa(i)+"]: "+err.Error())
				continue
			}
			rp.initial = append(rp.initial, g)
		}
	default:
		rd.add(rd.find(top, `initial_goals\s*=`), "role: initial_goals must be a list of goals, not "+ig.Type().String())
	}
	return rp
}

func (rd *roleReader) plan(t *lua.LTable, i int, at engine.Pos) *bdi.Plan {
	p := &bdi.Plan{}
	p.Name = rd.str(t, "name", "plan #"+itoa(i+1), at)
	what := "plan #" + itoa(i+1)
	if p.Name != "" {
		what = "plan \"" + p.Name + "\""
	}
	// A plan's place: its body's definition (right for plans from plan
	// libraries, which live in other files), else its declaration here.
	p.Pos = rd.find(at, `on\s*=`)
	if p.Name != "" {
		p.Pos = rd.declPos(at, p.Name)
	}
	body, _ := t.RawGetString("body").(*lua.LFunction)
	if body != nil && body.Proto != nil && body.Proto.SourceName != rd.file && body.Proto.LineDefined > 0 {
		p.Pos = engine.Pos{File: body.Proto.SourceName, Line: body.Proto.LineDefined}
	}
	rd.checkKeys(t, planKeys, what, p.Pos)
	switch on := t.RawGetString("on").(type) {
	case lua.LString:
		k, ok := bdi.ParseKind(string(on))
		if !ok {
			rd.add(rd.find(p.Pos, `on\s*=`), what+": unknown on \""+string(on)+"\" (one of "+strings.Join(bdi.KindNames(), ", ")+")"+
				didYouMean(string(on), bdi.KindNames()))
		}
		p.On = k
	case *lua.LNilType:
		rd.add(p.Pos, what+": on is required (one of "+strings.Join(bdi.KindNames(), ", ")+")")
	default:
		rd.add(rd.find(p.Pos, `on\s*=`), what+": on must be a string, not "+on.Type().String())
	}
	p.Goal = rd.str(t, "goal", what, p.Pos)
	p.Belief = rd.str(t, "belief", what, p.Pos)
	p.Source = rd.str(t, "source", what, p.Pos)
	if p.On != 0 && ((p.On.IsBelief() && p.Goal != "") || (p.On.IsGoal() && p.Belief != "")) {
		key := "goal"
		if p.Belief != "" {
			key = "belief"
		}
		rd.add(rd.find(p.Pos, key+`\s*=`), what+": a "+key+" filter on a "+map[bool]string{true: "belief", false: "goal"}[p.On.IsBelief()]+
			" event (on = "+p.On.String()+"): use "+map[bool]string{true: "belief", false: "goal"}[p.On.IsBelief()]+" = \"name\"")
		p.Goal, p.Belief = "", ""
	}
	trigger := rd.fn(t, "trigger", what, p.Pos)
	guard := rd.fn(t, "guard", what, p.Pos)
	switch b := t.RawGetString("body").(type) {
	case *lua.LFunction:
		p.Body = &planBody{rt: rd.rt, fn: b}
	case *lua.LNilType:
		rd.add(p.Pos, what+": body is required (a function(npc, ctx))")
	default:
		rd.add(rd.find(p.Pos, `body\s*=`), what+": body must be a function(npc, ctx), not "+b.Type().String())
	}
	if p.Body == nil {
		p.Body = bdi.Func(func(*engine.Agent, *bdi.Event, any) (any, error) { return nil, errors.New("no body") })
	}
	r := rd.rt
	p.Trigger = func(a *engine.Agent, ev *bdi.Event) (any, error) {
		subject := r.subject(ev)
		if trigger == nil {
			return subject, nil
		}
		r.site = callSite{kind: siteTrigger, name: what}
		rets, err := r.call(a, modeTrigger, trigger, 1, subject, r.npc(a), r.eventTable(ev))
		if err != nil {
			return nil, err
		}
		return ctxOf(rets[0]), nil
	}
	if guard != nil {
		p.Guard = func(a *engine.Agent, ev *bdi.Event, ctx any) (any, error) {
			r.site = callSite{kind: siteGuard, name: what}
			rets, err := r.call(a, modeGuard, guard, 1, r.toLua(ctx), r.npc(a))
			if err != nil {
				return nil, err
			}
			return ctxOf(rets[0]), nil
		}
	}
	return p
}

// ctxOf is a trigger's or guard's result: nil and false mean "no".
func ctxOf(v lua.LValue) any {
	if v == lua.LNil || v == lua.LFalse {
		return nil
	}
	return v
}

func (rd *roleReader) fn(t *lua.LTable, key, what string, at engine.Pos) *lua.LFunction {
	switch f := t.RawGetString(key).(type) {
	case *lua.LFunction:
		return f
	case *lua.LNilType:
	default:
		rd.add(rd.find(at, regexp.QuoteMeta(key)+`\s*=`), what+": "+key+" must be a function, not "+f.Type().String())
	}
	return nil
}

// notePlans keeps a role file's plans for its domain, with its parent's
// after its own (a child's specific plans come first).
func (r *Runtime) notePlans(path string, rp *rolePlans, parentFile string) {
	if r.bdi.planSets == nil {
		r.bdi.planSets = map[string]*rolePlans{}
	}
	if parent := r.bdi.planSets[parentFile]; parentFile != "" && parent != nil {
		rp.plans = append(rp.plans, parent.plans...)
		if rp.initial == nil {
			rp.initial = parent.initial
		}
		rp.quiet = rp.quiet || parent.quiet
	}
	r.bdi.planSets[path] = rp
}

// installPlans gives the domain compiled from specs its reactive layer:
// the plans of every role in order, and their initial goals. A domain
// whose roles have neither gets none.
func (r *Runtime) installPlans(d *engine.Domain, specs []engine.RoleSpec) []engine.Problem {
	cfg := &bdi.Config{}
	var plans []*bdi.Plan
	for _, s := range specs {
		if rp := r.bdi.planSets[s.File]; rp != nil {
			plans = append(plans, rp.plans...)
			cfg.InitialGoals = append(cfg.InitialGoals, rp.initial...)
			cfg.QuietBeliefs = cfg.QuietBeliefs || rp.quiet
		}
	}
	if len(plans) == 0 && len(cfg.InitialGoals) == 0 {
		return nil
	}
	lib, err := bdi.NewLibrary(d, plans)
	var ce *engine.CompileError
	if errors.As(err, &ce) {
		return ce.Problems
	} else if err != nil {
		return []engine.Problem{{Msg: err.Error()}}
	}
	cfg.Library = lib
	bdi.Install(d, cfg)
	return nil
}
