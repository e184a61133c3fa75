package luabind

import (
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// LoadRole runs a role file in the sandbox and reads the role table it
// returns. Action bodies (run) become coroutine bodies in this runtime.
// Every problem in the file is reported at once in an
// *engine.CompileError whose lines read "file:line:col: message"; a Lua
// syntax or runtime error while the file runs is returned alone, in the
// same form.
func (r *Runtime) LoadRole(path string) (engine.RoleSpec, error) {
	if r.closed {
		return engine.RoleSpec{}, errClosed
	}
	lr, err := r.loadRole(r.resolve(path), nil)
	if lr == nil {
		return engine.RoleSpec{}, err
	}
	return lr.spec(), err
}

// loadedRole is a role file read by this runtime, for extends by name.
// It keeps the file's own role and a link to the role it extends, not the
// merged role, so a chain of roles costs memory in proportion to what
// its files declare (see spec).
type loadedRole struct {
	own     engine.RoleSpec // the file's role, before the parent's is merged in
	extends bool            // the file names a parent (parent is nil when that failed)
	parent  *loadedRole
	depth   int // roles in the chain from this one to its root, itself included
	path    string
	// llmModel is the file's own role-level llm_model: the model role
	// npc:llm_plan asks in its agents' bodies when neither the call nor
	// the running action names one (see model).
	llmModel string
}

// model is the role's llm_model: its own, else the nearest parent's that
// sets one.
func (lr *loadedRole) model() string {
	for l := lr; l != nil; l = l.parent {
		if l.llmModel != "" {
			return l.llmModel
		}
	}
	return ""
}

// loadRole reads one role file; chain holds the files that extend it, to
// catch an extends cycle.
func (r *Runtime) loadRole(path string, chain []string) (*loadedRole, error) {
	for _, c := range chain {
		if c == path {
			return nil, errExtendsCycle{strings.Join(append(chain, path), " extends ")}
		}
	}
	src, err := readScript(path)
	if err != nil {
		return nil, errors.New("luabind: " + err.Error())
	}
	if r.reading != nil {
		r.reading[path] = true
	}
	fn, err := r.compile(strings.NewReader(string(src)), path)
	if err != nil {
		err = luaError(err)
		if msg := missingEnd(err.Error(), string(src)); msg != err.Error() {
			err = errors.New(msg)
		}
		if msg, ok := strings.CutPrefix(err.Error(), path+":0: "); ok {
			// gopher-lua's compile limits carry no line: name the
			// statement with the most names or values, which hit it.
			err = errors.New(path + ":" + itoa(widestLine(string(src))) + ": " + msg)
		}
		if msg, ok := strings.CutPrefix(err.Error(), path+": syntax error at the end"); ok {
			// gopher-lua gives no position at the end of the file: name it.
			body := strings.TrimRight(string(src), " \t\r\n")
			line := 1 + strings.Count(body, "\n")
			col := len(body) - strings.LastIndexByte(body, '\n')
			err = errors.New(path + ":" + itoa(line) + ":" + itoa(col) + ": syntax error at the end" + msg)
		}
		return nil, err
	}
	// The file's modules are its own (see moduleKey): a parent role's
	// belong to the role file that extends it.
	root := path
	if len(chain) > 0 {
		root = chain[0]
	}
	r.envRoot[fn.Env] = root
	rets, err := r.call(nil, modeLoad, fn, 1)
	if err != nil {
		return nil, err
	}
	ret := rets[0]
	if p := proxyOf(ret); p != nil {
		ret = p.t // a role file that returns a module's role
	}
	tbl, ok := ret.(*lua.LTable)
	if ok {
		unwrapViews(tbl)
		r.freezeRole(tbl, path)
	}
	if !ok {
		msg := "a role file must return a role table, not " + ret.Type().String()
		if ret == lua.LNil {
			msg += " (the file returns nothing: write return before the role, as in return mm.role { ... } or return { name = ... })"
		}
		return nil, &engine.CompileError{Problems: []engine.Problem{{
			Pos: engine.Pos{File: path, Line: lastLine(string(src)), Col: 1}, Msg: msg}}}
	}
	rd := &roleReader{rt: r, file: path, src: string(src)}
	spec := rd.role(tbl)
	rp := rd.readPlans(tbl)
	objs := rd.objects(tbl, engine.Pos{File: path, Line: 1, Col: 1})
	lr := &loadedRole{own: spec, path: path, depth: 1, llmModel: rd.llmModel(tbl, "role", engine.Pos{File: path, Line: 1, Col: 1})}
	parentFile := ""
	var problems []engine.Problem
	if ext := tbl.RawGetString("extends"); ext != lua.LNil {
		lr.extends = true
		parent, err := rd.parent(ext, append(chain[:len(chain):len(chain)], path))
		var ce *engine.CompileError
		switch {
		case errors.As(err, &ce):
			problems = append(problems, ce.Problems...)
		case err != nil:
			return nil, err
		}
		if parent != nil {
			lr.parent, lr.depth = parent, parent.depth+1
			parentFile = parent.own.File
		}
	}
	r.notePlans(path, rp, parentFile)
	r.noteObjects(path, objs, parentFile)
	problems = append(problems, rd.problems...)
	if len(problems) > 0 {
		return lr, &engine.CompileError{Problems: problems}
	}
	if spec.Name != "" {
		r.roles[spec.Name] = lr
	}
	return lr, nil
}

// LoadDomain loads role files and compiles them into one domain (a later
// role's state variables, goals and actions with the same names win).
// Problems from every file are reported together.
func (r *Runtime) LoadDomain(paths ...string) (*engine.Domain, error) {
	if r.closed {
		return nil, errClosed
	}
	files := map[string]bool{}
	outer := r.reading
	r.reading = files
	defer func() { r.reading = outer }()
	d, model, err := r.loadDomain(paths)
	if err == nil {
		rec := &domainRecord{paths: append([]string(nil), paths...), files: map[string]bool{}, llmModel: model}
		for f := range files {
			rec.files[filepath.Clean(f)] = true
		}
		for _, p := range paths {
			rec.objects = mergeObjects(rec.objects, r.objectSets[r.resolve(p)])
		}
		r.domains[d] = rec
	}
	return d, err
}

// loadDomain is LoadDomain without the record for Reload; it also returns
// the domain's role-level llm_model (the last role's that names one).
func (r *Runtime) loadDomain(paths []string) (*engine.Domain, string, error) {
	var specs []engine.RoleSpec
	var problems []engine.Problem
	model := ""
	for _, p := range paths {
		lr, err := r.loadRole(r.resolve(p), nil)
		var ce *engine.CompileError
		switch {
		case errors.As(err, &ce):
			problems = append(problems, ce.Problems...)
		case err != nil:
			return nil, "", err
		}
		var spec engine.RoleSpec
		if lr != nil {
			spec = lr.spec()
			if m := lr.model(); m != "" {
				model = m // a later role's wins, as its actions do
			}
		}
		specs = append(specs, spec)
	}
	d, err := engine.Compile(specs...)
	var ce *engine.CompileError
	if errors.As(err, &ce) {
		problems = append(problems, readsAtText(ce.Problems, specs)...)
	} else if err != nil {
		return nil, "", err
	} else {
		problems = append(problems, readsAtText(d.Undeclared(), specs)...)
		if len(problems) == 0 {
			problems = r.installPlans(d, specs)
		}
	}
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool {
			a, b := problems[i].Pos, problems[j].Pos
			if a.File != b.File {
				return false // keep the files in load order
			}
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Col < b.Col
		})
		return nil, "", &engine.CompileError{Problems: problems}
	}
	d.Facts = luaFacts{r}
	d.SafeNumbers = true // scripts cannot write others (toValue)
	if hasFuncConsideration(d) {
		d.Scoring = r.scoring
	}
	return d, model, nil
}

// readsAtText moves each problem of Domain.Undeclared (which a failing
// engine.Compile lists too), which the engine
// places at the goal or action that reads the variable, to the start of
// the condition, pre or effects text that reads it, where a syntax error
// in that text is placed too (and where moonmind check places it). A text
// whose place is not known (not a string literal in the file) keeps the
// declaration's place.
func readsAtText(problems []engine.Problem, specs []engine.RoleSpec) []engine.Problem {
	type field struct {
		pos    engine.Pos
		prefix string
	}
	texts := map[field]engine.Pos{}
	for _, s := range specs {
		for _, g := range s.Goals {
			texts[field{g.Pos, "goal \"" + g.Name + "\" condition reads \""}] = g.ConditionAt
		}
		for _, a := range s.Actions {
			texts[field{a.Pos, "action \"" + a.Name + "\" pre reads \""}] = a.PreAt
			texts[field{a.Pos, "action \"" + a.Name + "\" effects reads \""}] = a.EffectsAt
		}
	}
	problems = slices.Clone(problems) // a CompileError's are not to change
	for i, p := range problems {
		head, _, ok := strings.Cut(p.Msg, " reads \"")
		if !ok {
			continue
		}
		if at := texts[field{p.Pos, head + " reads \""}]; at.Line > 0 {
			problems[i].Pos = at
		}
	}
	return problems
}

type roleReader struct {
	rt         *Runtime
	file       string
	src        string
	problems   []engine.Problem
	lineStarts []int // see lines
}

func (rd *roleReader) add(pos engine.Pos, msg string) {
	rd.problems = append(rd.problems, engine.Problem{Pos: pos, Msg: msg})
}

var (
	roleKeys      = []string{"name", "description", "extends", "state", "goals", "actions", "conditions", "sensors", "decide", "considerations", "utility_mode", "plans", "initial_goals", "quiet_beliefs", "check_ignore", "squad", "lod", "memory", "objects", "llm_model"}
	goalKeys      = []string{"name", "condition", "priority", "description", "persistent", "deadline"}
	actionKeys    = []string{"name", "description", "pre", "effects", "post", "fulfills", "cost", "utility", "run", "on_interrupt", "restricted", "considerations", "inputs", "output", "can_rerun", "achieves_goal", "llm_model", "uses"}
	utilKeys      = []string{"cost", "value", "weight", "tags"}
	sensorKeys    = []string{"name", "description", "every", "run"}
	conditionKeys = []string{"name", "description", "test"}
)

// checkKeys reports keys of t outside allowed, with a suggestion.
func (rd *roleReader) checkKeys(t *lua.LTable, allowed []string, what string, pos engine.Pos) {
	var bad []string
	t.ForEach(func(k, _ lua.LValue) {
		ks, ok := k.(lua.LString)
		if !ok {
			bad = append(bad, k.String())
			return
		}
		for _, a := range allowed {
			if string(ks) == a {
				return
			}
		}
		bad = append(bad, string(ks))
	})
	sort.Strings(bad)
	for _, k := range bad {
		p := rd.find(pos, regexp.QuoteMeta(k)+`\s*=`)
		rd.add(p, what+": unknown key \""+k+"\""+didYouMean(k, allowed))
	}
}

func (rd *roleReader) role(t *lua.LTable) engine.RoleSpec {
	top := engine.Pos{File: rd.file, Line: 1, Col: 1}
	rd.checkKeys(t, roleKeys, "role", top)
	spec := engine.RoleSpec{File: rd.file}
	spec.Name = rd.str(t, "name", "role", top)
	if spec.Name == "" {
		rd.add(top, "role: name is required")
	}
	spec.Decide = rd.str(t, "decide", "role", top)
	if m := spec.Decide; m != "" && m != "goap" && m != "utility" && m != "hybrid" {
		rd.add(rd.find(top, `decide\s*=`), "role: decide must be \"goap\", \"utility\" or \"hybrid\", not \""+m+"\""+
			didYouMean(m, []string{"goap", "utility", "hybrid"}))
		spec.Decide = ""
	}
	switch st := t.RawGetString("state").(type) {
	case *lua.LTable:
		spec.State = rd.state(st, "state")
	case *lua.LNilType:
	default:
		rd.add(rd.find(top, `state\s*=`), "role: state must be a table of name = value, not "+st.Type().String())
	}
	switch sq := t.RawGetString("squad").(type) {
	case *lua.LTable:
		// The squad's board: state variables under the scope "squad"
		// (engine.GroupSpecOf), read as npc.squad.x or "squad.x".
		for _, v := range rd.state(sq, "squad") {
			v.Name = "squad." + v.Name
			spec.State = append(spec.State, v)
		}
	case *lua.LNilType:
	default:
		rd.add(rd.find(top, `squad\s*=`), "role: squad must be a table of name = value, not "+sq.Type().String())
	}
	if ext := t.RawGetString("extends"); ext != lua.LNil {
		if _, ok := ext.(lua.LString); !ok {
			rd.add(rd.find(top, `extends\s*=`), "role: extends must be a role name or a module name (a string), not "+ext.Type().String())
		}
	}
	seen := map[string]engine.Pos{}
	goalsAt := rd.find(top, `goals\s*=`)
	for i, g := range rd.list(t, "goals", top) {
		gs := rd.goal(g, i, goalsAt)
		goalsAt = after(goalsAt, gs.Pos)
		if rd.unique(seen, "goal", gs.Name, gs.Pos) {
			spec.Goals = append(spec.Goals, gs)
		}
	}
	seen = map[string]engine.Pos{}
	actionsAt := rd.find(top, `actions\s*=`)
	for i, a := range rd.list(t, "actions", top) {
		as := rd.action(a, i, actionsAt)
		actionsAt = after(actionsAt, as.Pos)
		if rd.unique(seen, "action", as.Name, as.Pos) {
			spec.Actions = append(spec.Actions, as)
		}
	}
	spec.Sensors = rd.sensors(t, top)
	spec.Conditions = rd.conditions(t, top)
	rd.considerations(t, &spec)
	rd.lod(t, &spec, top)
	rd.memory(t, &spec, top)
	for _, c := range spec.Conditions {
		for _, v := range spec.State {
			if v.Name == c.Name {
				rd.add(c.Pos, "condition \""+c.Name+"\" has the name of a state variable; a condition is read by name like one, so rename one of them")
			}
		}
	}
	return spec
}

// nameValues reads a table of name = value (a role's state, an object's
// data), giving each pair to put. A key that is not a name (keys naming
// what a key must be) is reported at at, a value that is not a number,
// string or boolean at its name; label starts both messages.
func (rd *roleReader) nameValues(t *lua.LTable, at engine.Pos, label, keys string, put func(name string, val expr.Value)) {
	t.ForEach(func(k, v lua.LValue) {
		name, ok := k.(lua.LString)
		if !ok {
			rd.add(at, label+": keys must be "+keys+", not "+k.Type().String())
			return
		}
		val, err := toValue(v)
		if err != nil {
			rd.add(rd.find(at, regexp.QuoteMeta(string(name))+`\s*=`), label+"."+string(name)+": "+err.Error())
			return
		}
		put(string(name), val)
	})
}

// state reads a table of name = value, the role's field key (state or
// squad).
func (rd *roleReader) state(t *lua.LTable, key string) []engine.Var {
	var vars []engine.Var
	at := rd.find(engine.Pos{File: rd.file, Line: 1, Col: 1}, key+`\s*=`)
	rd.nameValues(t, at, key, "variable names", func(name string, val expr.Value) {
		vars = append(vars, engine.Var{Name: name, Value: val})
	})
	// Lua tables have no order: sort by name so slots are deterministic.
	sort.Slice(vars, func(i, j int) bool { return vars[i].Name < vars[j].Name })
	return vars
}

// list reads t[key] as a list of tables.
func (rd *roleReader) list(t *lua.LTable, key string, at engine.Pos) []*lua.LTable {
	v := t.RawGetString(key)
	if v == lua.LNil {
		return nil
	}
	lt, ok := v.(*lua.LTable)
	if !ok {
		rd.add(rd.find(at, key+`\s*=`), "role: "+key+" must be a list of tables, not "+v.Type().String())
		return nil
	}
	var out []*lua.LTable
	n := lt.Len()
	for i := 1; i <= n; i++ {
		e, ok := lt.RawGetInt(i).(*lua.LTable)
		if !ok {
			rd.add(rd.find(at, key+`\s*=`), "role: "+key+"["+itoa(i)+"] must be a table, not "+lt.RawGetInt(i).Type().String())
			continue
		}
		out = append(out, e)
	}
	lt.ForEach(func(k, _ lua.LValue) {
		if n, ok := k.(lua.LNumber); !ok || float64(n) < 1 || float64(n) > float64(lt.Len()) {
			rd.add(rd.find(at, key+`\s*=`), "role: "+key+" must be a list (so declaration order is kept); found key "+k.String())
		}
	})
	return out
}

// entry reads the name of the i-th (0-based) entry of a list of goals,
// actions, sensors or conditions, finds its declaration after at, and
// checks its keys. what names it in messages: `goal "armed"`, or `goal #2`
// when it has no name (which is reported).
func (rd *roleReader) entry(t *lua.LTable, kind string, keys []string, i int, at engine.Pos) (name string, pos engine.Pos, what string) {
	name = rd.str(t, "name", kind, at)
	pos = rd.declPos(at, name)
	what = kind + " \"" + name + "\""
	if name == "" {
		what = kind + " #" + itoa(i+1)
		rd.add(pos, what+": name is required")
	}
	rd.checkKeys(t, keys, what, pos)
	return name, pos, what
}

func (rd *roleReader) goal(t *lua.LTable, i int, at engine.Pos) engine.GoalSpec {
	name, pos, what := rd.entry(t, "goal", goalKeys, i, at)
	g := engine.GoalSpec{Name: name, Pos: pos}
	g.Condition = rd.str(t, "condition", what, pos)
	g.ConditionAt = rd.literalPos(pos, g.Condition)
	g.Description = rd.str(t, "description", what, pos)
	g.Priority = engine.Normal
	switch p := t.RawGetString("priority").(type) {
	case *lua.LNilType:
	case lua.LString:
		prio, ok := engine.ParsePriority(string(p))
		if !ok {
			rd.add(rd.find(pos, `priority\s*=`), what+": priority must be low, normal, high, critical or a number, not \""+string(p)+"\""+
				didYouMean(strings.ToLower(string(p)), []string{"low", "normal", "high", "critical"}))
		}
		g.Priority = prio
	case lua.LNumber:
		if float64(p) != math.Trunc(float64(p)) || p < 1 || p > 1e6 {
			rd.add(rd.find(pos, `priority\s*=`), what+": priority must be low, normal, high, critical or a whole number from 1 to 1000000, not "+p.String())
		}
		g.Priority = engine.Priority(int(p))
	default:
		rd.add(rd.find(pos, `priority\s*=`), what+": priority must be a string or a number, not "+p.Type().String())
	}
	g.Persistent = rd.boolean(t, "persistent", what, pos)
	g.Deadline = rd.num(t, "deadline", what, pos)
	return g
}

func (rd *roleReader) action(t *lua.LTable, i int, at engine.Pos) engine.ActionSpec {
	name, pos, what := rd.entry(t, "action", actionKeys, i, at)
	a := engine.ActionSpec{Name: name, Pos: pos}
	a.Pre = rd.str(t, "pre", what, pos)
	a.PreAt = rd.literalPos(pos, a.Pre)
	a.Effects = rd.str(t, "effects", what, pos)
	if pt, ok := t.RawGetString("post").(*lua.LTable); ok {
		// post = { "cond", ... }: named conditions the action promises.
		a.Post = rd.names(pt, "post", "condition names", what, pos)
	} else if post := rd.str(t, "post", what, pos); post != "" {
		switch {
		case !strings.Contains(post, "="):
			// Every effect assigns; names alone are the list form's named
			// conditions, written as a string.
			rd.add(rd.find(pos, `post\s*=`), what+": post "+strconv.Quote(post)+" is a string, which is another name for effects (\"variable = value, ...\"); to promise named conditions, list them: post = { "+quoteNames(post)+" }")
		case a.Effects != "":
			rd.add(rd.find(pos, `post\s*=`), what+": give effects or post (another name for effects), not both")
		default:
			a.Effects = post
		}
	}
	switch in := t.RawGetString("inputs").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		a.Inputs = rd.names(in, "inputs", "type names", what, pos)
	case lua.LString:
		a.Inputs = []string{string(in)}
	default:
		rd.add(rd.find(pos, `inputs\s*=`), what+": inputs must be a list of type names, not "+in.Type().String())
	}
	a.Output = rd.str(t, "output", what, pos)
	a.AchievesGoal = rd.str(t, "achieves_goal", what, pos)
	a.Uses = rd.str(t, "uses", what, pos) // a kind of smart object (engine.Object)
	if v, ok := t.RawGetString("can_rerun").(lua.LBool); ok {
		a.NoRerun = !bool(v)
	} else {
		rd.boolean(t, "can_rerun", what, pos) // reports a value of another type
	}
	a.EffectsAt = rd.literalPos(pos, a.Effects)
	if t.RawGetString("fulfills") != lua.LNil {
		a.FulfillsAt = rd.find(pos, `fulfills\s*=`)
	}
	switch f := t.RawGetString("fulfills").(type) {
	case *lua.LNilType:
	case lua.LString:
		a.Fulfills = []string{string(f)}
	case *lua.LTable:
		for j, n := 1, f.Len(); j <= n; j++ {
			s, ok := f.RawGetInt(j).(lua.LString)
			if !ok {
				rd.add(rd.find(pos, `fulfills\s*=`), what+": fulfills must list goal names")
				continue
			}
			a.Fulfills = append(a.Fulfills, string(s))
		}
	default:
		rd.add(rd.find(pos, `fulfills\s*=`), what+": fulfills must be a goal name or a list of them, not "+f.Type().String())
	}
	a.Cost = rd.num(t, "cost", what, pos)
	if c, ok := t.RawGetString("cost").(lua.LNumber); ok && c == 0 {
		// The engine reads a zero cost as "not given" (1); say it here.
		// Negative, NaN and infinite costs are the engine's to report.
		rd.add(rd.find(pos, `cost\s*=`), what+": cost must be > 0")
	}
	switch u := t.RawGetString("utility").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		upos := rd.find(pos, `utility\s*=`)
		rd.checkKeys(u, utilKeys, what+" utility", upos)
		a.Utility.Cost = rd.num(u, "cost", what+" utility", upos)
		a.Utility.Value = rd.num(u, "value", what+" utility", upos)
		a.Utility.Weight = rd.num(u, "weight", what+" utility", upos)
		a.Utility.Set = utilitySet(u)
		switch tags := u.RawGetString("tags").(type) {
		case *lua.LTable:
			for j, n := 1, tags.Len(); j <= n; j++ {
				a.Utility.Tags = append(a.Utility.Tags, tags.RawGetInt(j).String())
			}
		case *lua.LNilType:
		default:
			// Not ignored: a string here would leave the action with no
			// tag, and hasTag would score it 0 without a word.
			rd.add(rd.find(upos, `tags\s*=`), what+" utility: tags must be a list of names, such as tags = { \"combat\" }, not "+tags.Type().String())
		}
	default:
		rd.add(rd.find(pos, `utility\s*=`), what+": utility must be a table {cost, value, weight, tags}")
	}
	switch v := t.RawGetString("restricted").(type) {
	case lua.LString:
		// restricted = "authority": the action needs that authority.
		if a.Authority = string(v); a.Authority == "" {
			rd.add(rd.find(pos, `restricted\s*=`), what+": restricted must name an authority, not the empty string")
		}
	case lua.LBool:
		a.Restricted = bool(v)
	case *lua.LNilType:
	default:
		rd.add(rd.find(pos, `restricted\s*=`), what+": restricted must be true, false or the name of an authority, not "+v.Type().String())
	}
	body := &luaBody{rt: rd.rt}
	switch f := t.RawGetString("run").(type) {
	case *lua.LFunction:
		body.fn = f
	case *lua.LNilType:
	default:
		rd.add(rd.find(pos, `run\s*=`), what+": run must be a function, not "+f.Type().String())
	}
	switch f := t.RawGetString("on_interrupt").(type) {
	case *lua.LFunction:
		body.onInterrupt = f
	case *lua.LNilType:
	default:
		rd.add(rd.find(pos, `on_interrupt\s*=`), what+": on_interrupt must be a function, not "+f.Type().String())
	}
	body.llmModel = rd.llmModel(t, what, pos)
	if body.fn != nil {
		a.Body = body
	}
	return a
}

// llmModel reads the llm_model of a role or an action (what, declared
// at pos): the name of a model role, or "" when it has none.
func (rd *roleReader) llmModel(t *lua.LTable, what string, pos engine.Pos) string {
	switch m := t.RawGetString("llm_model").(type) {
	case lua.LString:
		return string(m)
	case *lua.LNilType:
	default:
		rd.add(rd.find(pos, `llm_model\s*=`), what+": llm_model must name a model role (a string), not "+m.Type().String())
	}
	return ""
}

// names reads a list of strings, reporting any other element.
func (rd *roleReader) names(t *lua.LTable, key, of, what string, at engine.Pos) []string {
	var out []string
	for j, n := 1, t.Len(); j <= n; j++ {
		s, ok := t.RawGetInt(j).(lua.LString)
		if !ok {
			rd.add(rd.find(at, key+`\s*=`), what+": "+key+" must list "+of+", not "+t.RawGetInt(j).Type().String())
			continue
		}
		out = append(out, string(s))
	}
	return out
}

func (rd *roleReader) str(t *lua.LTable, key, what string, at engine.Pos) string {
	switch v := t.RawGetString(key).(type) {
	case *lua.LNilType:
		return ""
	case lua.LString:
		return string(v)
	default:
		rd.add(rd.find(at, key+`\s*=`), what+": "+key+" must be a string, not "+v.Type().String())
	}
	return ""
}

func (rd *roleReader) boolean(t *lua.LTable, key, what string, at engine.Pos) bool {
	switch v := t.RawGetString(key).(type) {
	case *lua.LNilType:
		return false
	case lua.LBool:
		return bool(v)
	default:
		rd.add(rd.find(at, key+`\s*=`), what+": "+key+" must be true or false, not "+v.Type().String())
	}
	return false
}

func (rd *roleReader) num(t *lua.LTable, key, what string, at engine.Pos) float64 {
	switch v := t.RawGetString(key).(type) {
	case *lua.LNilType:
		return 0
	case lua.LNumber:
		return float64(v)
	default:
		rd.add(rd.find(at, key+`\s*=`), what+": "+key+" must be a number, not "+v.Type().String())
	}
	return 0
}

// Positions. Lua tables keep no source positions, so the reader finds a
// declaration in the file's text: the first match of a pattern at or after
// a known position. This is exact for the usual layout (one declaration
// per name) and falls back to the enclosing declaration otherwise.

func (rd *roleReader) offset(p engine.Pos) int {
	starts := rd.lines()
	if p.Line < 1 {
		p.Line = 1
	}
	if p.Line > len(starts) {
		return len(rd.src)
	}
	return min(starts[p.Line-1]+max(p.Col-1, 0), len(rd.src))
}

func (rd *roleReader) posOf(off int) engine.Pos {
	starts := rd.lines()
	// The last line that starts at or before off.
	line, _ := slices.BinarySearch(starts, off+1)
	return engine.Pos{File: rd.file, Line: line, Col: off - starts[line-1] + 1}
}

// lines returns the offsets where the lines of rd.src start (the first
// at 0), made once: offset and posOf, called for every field of every
// entry, counted the lines from the start of the file each time.
func (rd *roleReader) lines() []int {
	if rd.lineStarts == nil {
		rd.lineStarts = []int{0}
		for i := 0; i < len(rd.src); i++ {
			if rd.src[i] == '\n' {
				rd.lineStarts = append(rd.lineStarts, i+1)
			}
		}
	}
	return rd.lineStarts
}

// find returns the position of the first match of pattern at or after
// from, or from itself.
func (rd *roleReader) find(from engine.Pos, pattern string) engine.Pos {
	off := rd.offset(from)
	re, err := regexp.Compile(`(?:^|[^\w])(` + pattern + `)`)
	if err != nil {
		return from
	}
	m := re.FindStringSubmatchIndex(rd.src[off:])
	if m == nil {
		return from
	}
	return rd.posOf(off + m[2])
}

// declPos finds the declaration of NAME after at: `name = "NAME"` in a
// plain table, or the call of a helper that takes the name first,
// `mm.goal("NAME"` (any mm.* helper, and any local name for the module).
func (rd *roleReader) declPos(at engine.Pos, name string) engine.Pos {
	if name == "" {
		return at
	}
	q := regexp.QuoteMeta(name)
	return rd.find(at, `name\s*=\s*["']`+q+`["']|[A-Za-z_]\w*\.\w+\s*\(\s*["']`+q+`["']`)
}

// literalPos finds where the text of a string literal starts, after at.
func (rd *roleReader) literalPos(at engine.Pos, text string) engine.Pos {
	if text == "" {
		return engine.Pos{}
	}
	off := rd.offset(at)
	for _, q := range []string{`"`, `'`, `[[`} {
		if i := strings.Index(rd.src[off:], q+text); i >= 0 {
			return rd.posOf(off + i + len(q))
		}
	}
	return engine.Pos{}
}

func lastLine(src string) int { return 1 + strings.Count(strings.TrimRight(src, "\n"), "\n") }

// widestLine returns the 1-based line of src with the most commas.
func widestLine(src string) int {
	best, most := 1, -1
	for i, line := range strings.Split(src, "\n") {
		if n := strings.Count(line, ","); n > most {
			best, most = i+1, n
		}
	}
	return best
}

// hasFuncConsideration reports whether a consideration of d, the role's
// or an action's (or one inside a combine), is a function: only those
// need to know the agent they score for (engine.Domain.Scoring).
func hasFuncConsideration(d *engine.Domain) bool {
	var any func(cs []engine.Consideration) bool
	any = func(cs []engine.Consideration) bool {
		for i := range cs {
			if cs[i].Func != nil || any(cs[i].Of) {
				return true
			}
		}
		return false
	}
	if any(d.Considerations) {
		return true
	}
	for _, a := range d.Actions {
		if any(a.Considerations) {
			return true
		}
	}
	return false
}

// quoteNames writes "a, b" as `"a", "b"`, for the list form of post.
func quoteNames(s string) string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, strconv.Quote(f))
		}
	}
	return strings.Join(out, ", ")
}
