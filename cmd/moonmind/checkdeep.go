package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// finding is one problem `moonmind check` reports, at the field it is
// about.
type finding struct {
	Pos      engine.Pos
	Severity string // "error", "warning" or "note" (a note is no failure)
	Msg      string
	// ID names the finding for a role's check_ignore, as kind:subject
	// ("sensor-write:hunger"); "" for a finding that cannot be silenced
	// (a role that does not load).
	ID string
}

func (f finding) String() string { return f.format(false) }

// format writes the finding as file:line:col: severity: message, the
// severity in colour when colour is true.
func (f finding) format(colour bool) string {
	c := colourYellow
	if f.Severity == "error" {
		c = colourRed
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.Pos.File, f.Pos.Line, f.Pos.Col, paint(colour, c, f.Severity), f.Msg)
}

// findingJSON is one finding in `moonmind check --json`.
type findingJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	ID       string `json:"id,omitempty"` // the name check_ignore takes
}

// loadFindings turns a load error into findings: one per problem of a
// *engine.CompileError, else one at the file's first line unless the error
// names its own file:line:col.
func loadFindings(path string, err error) []finding {
	var ce *engine.CompileError
	if errors.As(err, &ce) {
		out := make([]finding, 0, len(ce.Problems))
		fields := fieldFinder{src: readSource(path)}
		for _, p := range ce.Problems {
			pos := p.Pos
			// LoadDomain places a variable nothing provides at the
			// start of the text that reads it; when that text is no
			// string literal of the file it stays at the declaration,
			// and the field that reads it is more exact.
			if m := readsField.FindStringSubmatch(p.Msg); m != nil && pos.File == path {
				pos = fields.find(pos, m[1])
			}
			out = append(out, finding{Pos: pos, Severity: "error", Msg: p.Msg})
		}
		return out
	}
	msg := err.Error()
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2]) // the pattern matched digits
		col, _ := strconv.Atoi(m[3])
		f := finding{Pos: engine.Pos{File: m[1], Line: line, Col: col}, Severity: "error", Msg: strings.TrimSpace(msg[len(m[0]):])}
		return []finding{missingComma(f, readSource(m[1]))}
	}
	return []finding{{Pos: engine.Pos{File: path, Line: 1, Col: 1}, Severity: "error", Msg: msg}}
}

// missingComma moves a syntax error that Lua notices at the first token of
// a line back to the end of the line before, when that line ends a value
// (a table, a string, a number, a name): the usual cause is a comma
// missing between two fields or entries, and that is where it goes.
func missingComma(f finding, src string) finding {
	if !strings.HasPrefix(f.Msg, "syntax error near ") || strings.Contains(f.Msg, `is an "end" missing?`) || src == "" {
		return f // not a syntax error, or one the loader traced to a missing end
	}
	lines := strings.Split(src, "\n")
	if f.Pos.Line < 2 || f.Pos.Line > len(lines) {
		return f
	}
	this := lines[f.Pos.Line-1]
	// gopher-lua places the error at the last character of the token it
	// names ("near 'utility'" at column 13 when utility starts at column 7),
	// so the token starts len(token)-1 columns earlier.
	start := f.Pos.Col
	if m := nearToken.FindStringSubmatch(f.Msg); m != nil {
		end := min(max(f.Pos.Col, 0), len(this))
		if tok := m[1]; strings.HasSuffix(this[:end], tok) {
			start = end - len(tok) + 1
		}
	}
	if strings.TrimSpace(this[:min(max(start-1, 0), len(this))]) != "" {
		return f // the token is not the first of its line
	}
	for n := f.Pos.Line - 1; n >= 1; n-- {
		code := strings.TrimRight(withoutComment(lines[n-1]), " \t\r")
		if strings.TrimSpace(code) == "" {
			continue
		}
		last := code[len(code)-1]
		endsValue := last == '}' || last == '"' || last == '\'' || last == ')' || last == ']' ||
			last == '_' || last >= '0' && last <= '9' || last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z'
		for _, kw := range []string{"then", "do", "else", "return", "function", "and", "or", "not", "local", "in", "repeat"} {
			if strings.HasSuffix(code, kw) {
				endsValue = false
			}
		}
		if !endsValue {
			return f
		}
		f.Msg = fmt.Sprintf("%s on line %d: is a comma missing at the end of line %d, between two fields or entries?", f.Msg, f.Pos.Line, n)
		f.Pos.Line, f.Pos.Col = n, len(code)+1
		return f
	}
	return f
}

// withoutComment cuts a line of Lua at its "--" comment, if any, outside
// quoted strings.
func withoutComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '-' && i+1 < len(line) && line[i+1] == '-':
			return line[:i]
		}
	}
	return line
}

var readsField = regexp.MustCompile(`^(?:goal|action) "[^"]*" (condition|pre|effects) reads "`)

// nearToken reads the token of a gopher-lua syntax error: "syntax error near 'utility'".
var nearToken = regexp.MustCompile(`^syntax error near '(.+?)'`)

var posPrefix = regexp.MustCompile(`^(.+?):(\d+):(\d+):`)

// analyse looks for what loads but cannot work: goals no action can reach,
// from any state or from the initial one (a self-feeding cycle among
// them); numeric goals no action moves toward; effect arithmetic on a
// variable the role holds as a string or a boolean; in a goap role,
// actions no goal can use. Each finding is at the field it is about.
func analyse(d *engine.Domain, src string) []finding {
	var out []finding
	fields := fieldFinder{src: src}
	for _, g := range d.Goals {
		at := fields.find(g.Pos, "condition")
		if at == g.Pos {
			// mm.goal(name, condition): no key, the text itself.
			at = fields.literal(g.Pos, g.Condition.Source())
		}
		// The one rule of candidacy (engine.Goal.Candidate): a goal no
		// action is a candidate for is reached only when the world makes
		// it true.
		if !slices.ContainsFunc(d.Actions, g.Candidate) {
			out = append(out, finding{g.Pos, "note", fmt.Sprintf("goal %q has no candidate action (none lists it in fulfills or assigns a variable its condition reads): only the world can make it true", g.Name), "no-candidate:" + g.Name})
			continue
		}
		if msg := noMoveToward(d, g); msg != "" {
			out = append(out, finding{at, "error", msg, "no-progress:" + g.Name})
			continue
		}
		if msg := inexactEquality(d, g); msg != "" {
			out = append(out, finding{at, "warning", msg, "inexact-equality:" + g.Name})
		}
		if g.Satisfied(d.Initial) {
			continue
		}
		if _, err := depthPlanner(d, engine.MaxMaxDepth).PlanFor(g, d.Initial.Clone()); err != nil {
			var pe *engine.PlanError
			if errors.As(err, &pe) && (pe.Reason == engine.Unreachable || pe.Reason == engine.CyclicPrecondition) {
				msg := fmt.Sprintf("goal %q: no chain of actions reaches it from the initial state: %s", g.Name, strings.TrimPrefix(pe.Error(), "engine: "))
				if pe.Reason == engine.CyclicPrecondition {
					msg = fmt.Sprintf("goal %q: the actions that could reach it only feed each other (a self-feeding cycle): %s", g.Name, strings.TrimPrefix(pe.Error(), "engine: "))
				}
				out = append(out, finding{at, "warning", msg, "unreachable:" + g.Name})
			}
		}
	}
	sc := newScans()
	out = append(out, promisesSensorsBreak(d, fields, sc)...)
	out = append(out, undeclaredTargets(d, fields, sc)...)
	out = append(out, undeclaredInLua(d, src, sc)...)
	used := make([]bool, len(d.Actions)) // by action index: some goal can use it
	if d.Decide == "goap" {
		for _, g := range d.Goals {
			for i, r := range relevantTo(d, g) {
				used[i] = used[i] || r
			}
		}
	}
	for _, a := range d.Actions {
		out = append(out, arithmeticOnText(d, a, fields)...)
		if d.Decide == "goap" && !a.Restricted {
			if !used[a.Index] && len(d.Goals) > 0 {
				out = append(out, finding{a.Pos, "note", fmt.Sprintf("action %q: no goal can use it: it fulfills no goal, assigns no variable a goal reads, and helps no action that does (decide is goap, so it never runs)", a.Name), "unused-action:" + a.Name})
			}
		}
	}
	return out
}

// promisesSensorsBreak warns at each action's effects that promise a
// variable a sensor of the role also sets (as its Lua source shows): the
// sensor runs every tick it is due, also while the action's body runs, so
// it can undo the promise before the step ends, and the finished step
// then reports the effect unmet. A sensor that reads the variable it
// writes (hunger = hunger + 1) moves it from where the action left it:
// that is the needs pattern (a sensor raises a need, an action meets it),
// and no finding. Sensors written in Go are not seen.
func promisesSensorsBreak(d *engine.Domain, fields fieldFinder, sc scans) []finding {
	writers := map[string][]string{} // variable -> sensors setting it
	for _, s := range d.Sensors {
		t, _ := sc.entry(s.Pos, s.Name)
		for _, v := range t.Writes {
			if !slices.Contains(t.Reads, v) {
				writers[v] = append(writers[v], s.Name)
			}
		}
	}
	var out []finding
	for _, a := range d.Actions {
		for _, slot := range a.Effects.Writes() {
			name := d.Schema.Name(slot)
			ss := writers[name]
			if len(ss) == 0 {
				continue
			}
			out = append(out, finding{fields.find(a.Pos, "effects"), "warning",
				fmt.Sprintf("action %q: effect %q promises %s, which sensor %q also writes: the sensor can undo it while the action runs, and the promise will be broken (let the body or the sensor own %s, not both)",
					a.Name, a.Effects.Source(), name, ss[0], name), "sensor-write:" + name})
		}
	}
	return out
}

// undeclaredTargets reports each effect target the role's state does not
// declare (nor names as a named condition). Effects are promises the
// planner trusts; at run time only the role's Lua functions (action
// bodies, sensors, reactive plans) and the game write state, so a target
// that none of them writes by name is never made true: almost always a
// misspelt variable, and an error with a did-you-mean to the nearest
// declared one. When some function writes it by name the target is only
// undeclared (its value is unknown until then): a note. When a function
// writes variables by computed names it may be written there: a warning.
func undeclaredTargets(d *engine.Domain, fields fieldFinder, sc scans) []finding {
	named := map[int]bool{}
	for _, nc := range d.Conditions {
		named[nc.Slot] = true
	}
	var declared []string
	for i, v := range d.Initial {
		if v.IsKnown() && !named[i] {
			declared = append(declared, d.Schema.Name(i))
		}
	}
	written, dynamic := luaWrites(d, sc)
	var out []finding
	reported := map[int]bool{}
	for _, a := range d.Actions {
		for _, slot := range a.Effects.Writes() {
			if slot < len(d.Initial) && d.Initial[slot].IsKnown() || named[slot] {
				continue
			}
			name := d.Schema.Name(slot)
			at := fields.find(a.Pos, "effects")
			switch {
			case written[name]:
				if reported[slot] {
					continue // one note per variable is enough
				}
				reported[slot] = true
				out = append(out, finding{at, "note", fmt.Sprintf("action %q: effect target %s is not declared in the role's state: it is unknown (every condition on it false) until a function writes it; declare it in state with its starting value", a.Name, name), "effect-target:" + name})
			case dynamic != "":
				out = append(out, finding{at, "warning", fmt.Sprintf("action %q: effect %q assigns %s, which the role's state does not declare and no function writes by name (%s writes variables by computed names, perhaps this one)%s",
					a.Name, a.Effects.Source(), name, dynamic, engine.DidYouMean(name, declared)), "effect-target:" + name})
			default:
				out = append(out, finding{at, "error", fmt.Sprintf("action %q: effect %q assigns %s, which the role's state does not declare and no body, sensor or reactive plan writes: the promise is never kept, and every run of the action reports it unmet%s",
					a.Name, a.Effects.Source(), name, engine.DidYouMean(name, declared)), "effect-target:" + name})
			}
		}
	}
	return out
}

// luaWrites gathers the state variables the role's Lua functions (action
// bodies, sensors, named conditions, reactive plans) write by name, as
// their source shows; dynamic names the first entry that also writes by
// computed names, or is "".
func luaWrites(d *engine.Domain, sc scans) (written map[string]bool, dynamic string) {
	written = map[string]bool{}
	eachLuaEntry(d, sc, func(what string, _ engine.Pos, t luabind.Touches) {
		for _, v := range t.Writes {
			written[v] = true
		}
		if t.Dynamic && dynamic == "" {
			dynamic = what
		}
	})
	return written, dynamic
}

// eachLuaEntry calls f with what the source of each Lua function of the
// role shows (action bodies, sensors, named conditions, reactive plans),
// in that order, with a name for it ("action \"eat\"") and its place.
func eachLuaEntry(d *engine.Domain, sc scans, f func(what string, pos engine.Pos, t luabind.Touches)) {
	for _, a := range d.Actions {
		t, _ := sc.entry(a.Pos, a.Name)
		f(fmt.Sprintf("action %q", a.Name), a.Pos, t)
	}
	for _, s := range d.Sensors {
		t, _ := sc.entry(s.Pos, s.Name)
		f(fmt.Sprintf("sensor %q", s.Name), s.Pos, t)
	}
	for _, c := range d.Conditions {
		t, _ := sc.entry(c.Pos, c.Name)
		f(fmt.Sprintf("named condition %q", c.Name), c.Pos, t)
	}
	if d.NewReactive != nil {
		if m := bdi.Of(engine.NewAgent("check", d)); m != nil {
			if lib := m.Config().Library; lib != nil {
				for i, p := range lib.Plans() {
					t, _ := sc.entry(p.Pos, p.Name)
					what := fmt.Sprintf("reactive plan %q", p.Name)
					if p.Name == "" {
						what = "reactive plan #" + strconv.Itoa(i+1)
					}
					f(what, p.Pos, t)
				}
			}
		}
	}
}

// undeclaredInLua reports each state variable a Lua function of the role
// reads or writes by name (npc.state.NAME, npc.squad.NAME as squad.NAME,
// npc:believe("NAME")) that the
// role's state does not declare, no effect assigns and no named
// condition or typed fact names: an error when a declared variable is
// one or two edits away (a typo: npc.state.hungr for hunger), or when
// nothing writes the variable it reads (it is always nil there). A
// variable a function writes and others read is the role's own and no
// finding. Each finding is at the line of the first use.
func undeclaredInLua(d *engine.Domain, src string, sc scans) []finding {
	known := map[string]bool{}
	var declared []string
	for i, v := range d.Initial {
		if v.IsKnown() {
			known[d.Schema.Name(i)] = true
			declared = append(declared, d.Schema.Name(i))
		}
	}
	for _, nc := range d.Conditions {
		known[nc.Name] = true
	}
	for _, a := range d.Actions {
		for _, slot := range a.Effects.Writes() {
			known[d.Schema.Name(slot)] = true
		}
	}
	written, _ := luaWrites(d, sc)
	lines := strings.Split(src, "\n")
	var out []finding
	eachLuaEntry(d, sc, func(what string, pos engine.Pos, t luabind.Touches) {
		for _, v := range append(slices.Clone(t.Writes), t.Reads...) {
			if known[v] || d.IsType(v) {
				continue
			}
			known[v] = true // one finding per variable
			verb, use := "writes", "npc.state."+v
			if rest, ok := strings.CutPrefix(v, "squad."); ok {
				use = "npc.squad." + rest // a squad variable (the role's squad table)
			}
			if slices.Contains(t.Reads, v) && !slices.Contains(t.Writes, v) {
				verb = "reads"
			}
			near := engine.DidYouMean(v, declared)
			var msg string
			switch {
			case near != "":
				msg = fmt.Sprintf("%s %s %s, which the role's state does not declare%s", what, verb, use, near)
			case verb == "reads" && !written[v]:
				msg = fmt.Sprintf("%s reads %s, which the role's state does not declare and nothing writes: it is always nil there (declare it in state with its starting value)", what, use)
			default:
				continue
			}
			at := engine.Pos{File: pos.File, Line: t.Lines[v], Col: 1}
			if at.Line < 1 || at.Line > len(lines) {
				at = pos
			} else if i := strings.Index(lines[at.Line-1], "."+v); i >= 0 {
				at.Col = i + 2
			} else if i := strings.Index(lines[at.Line-1], `"`+v+`"`); i >= 0 {
				at.Col = i + 1
			}
			out = append(out, finding{at, "error", msg, "undeclared:" + v})
		}
	})
	return out
}

// arithmeticOnText reports each assignment of a's effects that adds or
// subtracts a variable the role's initial state holds as a string or a
// boolean: the effect fails whenever it runs.
func arithmeticOnText(d *engine.Domain, a *engine.Action, fields fieldFinder) []finding {
	var out []finding
	e := a.Effects
	for i := 0; i < e.NumAssigns(); i++ {
		if !e.IsArithmetic(i) {
			continue
		}
		for j := 0; j < e.NumTerms(i); j++ {
			t := e.Term(i, j)
			if !t.IsVar {
				continue
			}
			if t.Slot >= len(d.Initial) {
				continue
			}
			k := d.Initial[t.Slot].Kind()
			if k != expr.String && k != expr.Bool {
				continue
			}
			name := d.Schema.Name(t.Slot)
			out = append(out, finding{fields.find(a.Pos, "effects"), "error", fmt.Sprintf("action %q: effect %q does arithmetic on %s, which holds a %s (%s in the state): it fails whenever the action runs",
				a.Name, e.Source(), name, k, d.Initial[t.Slot]), "arithmetic:" + name})
		}
	}
	return out
}

// noMoveToward reports a goal whose condition is a conjunction holding
// "x > c" (or >=, <, <=) on a number variable that no action's effect
// moves the right way: no action adds to (takes from) x or sets it to a
// number. A goal some action lists in fulfills is left alone: that action
// says it completes the goal, and its body moves the variable.
func noMoveToward(d *engine.Domain, g *engine.Goal) string {
	for _, a := range d.Actions {
		if slices.Contains(a.Fulfills, g) {
			return "" // the action says it completes the goal: its body moves the variable
		}
	}
	for _, n := range conjuncts(g.Condition) {
		if n.Op() != expr.OpVarLit {
			continue
		}
		up := n.Cmp() == expr.Gt || n.Cmp() == expr.Ge
		if !up && n.Cmp() != expr.Lt && n.Cmp() != expr.Le {
			continue
		}
		if _, isNum := n.Lit().AsNumber(); !isNum {
			continue
		}
		slot := n.Slot()
		if n.Condition(g.Condition).Eval(d.Initial) {
			continue
		}
		if !movesToward(d, slot, up) {
			dir := "raises"
			if !up {
				dir = "lowers"
			}
			return fmt.Sprintf("goal %q: %s needs %s to move, and no action's effect %s it or sets it to a number",
				g.Name, nodeText(n, d.Schema), d.Schema.Name(slot), dir)
		}
	}
	return ""
}

// conjuncts returns the parts of c's top-level "&&", or c's root itself
// when it is not a conjunction.
func conjuncts(c *expr.Condition) []expr.Node {
	root := c.Root()
	if root.Op() != expr.OpAnd {
		return []expr.Node{root}
	}
	out := make([]expr.Node, root.NumKids())
	for i := range out {
		out[i] = root.Kid(i)
	}
	return out
}

// inexactEquality warns at a goal whose condition holds "x == c" (or
// "x != c") on a number variable that some action changes by a fractional
// step (x = x + 0.1): binary floating point cannot hold most decimals
// exactly, so such sums miss c (0.1 + 0.1 + 0.1 is 0.30000000000000004)
// and the goal may never hold. Only the top-level conjunction is read.
func inexactEquality(d *engine.Domain, g *engine.Goal) string {
	for _, n := range conjuncts(g.Condition) {
		if n.Op() != expr.OpVarLit || (n.Cmp() != expr.Eq && n.Cmp() != expr.Ne) {
			continue
		}
		if _, isNum := n.Lit().AsNumber(); !isNum {
			continue
		}
		if a, step := fractionalStep(d, n.Slot()); a != nil {
			return fmt.Sprintf("goal %q: %s compares exactly with a number that action %q changes by a fractional step (%s): floating-point sums of such steps rarely land on a decimal exactly (0.1 + 0.1 + 0.1 is 0.30000000000000004), so the goal may never hold; compare with >= or <= instead, or step by whole numbers",
				g.Name, nodeText(n, d.Schema), a.Name, step)
		}
	}
	return ""
}

// fractionalStep returns the first action whose effect adds to or takes
// from slot a literal that is not a whole number, and that effect's text.
func fractionalStep(d *engine.Domain, slot int) (*engine.Action, string) {
	for _, a := range d.Actions {
		e := a.Effects
		for i := 0; i < e.NumAssigns(); i++ {
			if e.Target(i) != slot || !e.IsArithmetic(i) {
				continue
			}
			for j := 0; j < e.NumTerms(i); j++ {
				t := e.Term(i, j)
				if f, ok := t.Lit.AsNumber(); !t.IsVar && ok && f != math.Trunc(f) {
					return a, e.Source()
				}
			}
		}
	}
	return nil, ""
}

// movesToward reports whether some action's effect sets slot to a number
// or another variable, or adds to it (up) or takes from it (!up) a
// positive literal or any variable.
func movesToward(d *engine.Domain, slot int, up bool) bool {
	for _, a := range d.Actions {
		e := a.Effects
		for i := 0; i < e.NumAssigns(); i++ {
			if e.Target(i) != slot {
				continue
			}
			if !e.IsArithmetic(i) {
				t := e.Term(i, 0)
				if t.IsVar || t.Lit.Kind() == expr.Number {
					return true
				}
				continue
			}
			for j := 0; j < e.NumTerms(i); j++ {
				t := e.Term(i, j)
				if t.IsVar && t.Slot == slot {
					continue
				}
				if t.IsVar {
					return true
				}
				if f, ok := t.Lit.AsNumber(); ok && f != 0 && ((f > 0) != t.Sub) == up {
					return true
				}
			}
		}
	}
	return false
}

// fieldFinder finds a field of a declaration in a role file's text: the
// first `key =` at or after the declaration's position and before the
// next `name =`, else the declaration itself. Lua tables keep no source
// positions, so this reads the text, as the loader does.
type fieldFinder struct{ src string }

func (f fieldFinder) find(at engine.Pos, key string) engine.Pos {
	return f.match(at, `(?:^|[^\w.])(`+regexp.QuoteMeta(key)+`)\s*=[^=]`)
}

// literal finds a quoted string holding text in the declaration at at,
// the way find finds a key (the position of its opening quote).
func (f fieldFinder) literal(at engine.Pos, text string) engine.Pos {
	q := regexp.QuoteMeta(text)
	return f.match(at, `(["']`+q+`["'])`)
}

// match finds the first submatch of pattern in the declaration at at.
func (f fieldFinder) match(at engine.Pos, pattern string) engine.Pos {
	if f.src == "" || at.Line < 1 {
		return at
	}
	off := 0
	for line := 1; line < at.Line; line++ {
		i := strings.IndexByte(f.src[off:], '\n')
		if i < 0 {
			return at
		}
		off += i + 1
	}
	off = min(off+max(at.Col-1, 0), len(f.src))
	rest := f.src[off:]
	// Skip the declaration itself, then stop at the next one.
	skip := 0
	if own := nextName.FindStringIndex(rest); own != nil && own[0] == 0 {
		skip = own[1]
	}
	end := len(rest)
	if m := nextName.FindStringIndex(rest[skip:]); m != nil {
		end = skip + m[0]
	}
	m := regexp.MustCompile(pattern).FindStringSubmatchIndex(rest[:end])
	if m == nil {
		return at
	}
	abs := off + m[2]
	line := 1 + strings.Count(f.src[:abs], "\n")
	col := abs - strings.LastIndexByte(f.src[:abs], '\n')
	return engine.Pos{File: at.File, Line: line, Col: col}
}

// nextName matches the start of the next declaration: `name = "` or a
// helper call that takes the name first, `mm.action("`.
var nextName = regexp.MustCompile(`(?:^|[^\w.])(?:name\s*=\s*["']|[A-Za-z_]\w*\.\w+\s*\(\s*["'])`)

func readSource(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}
