package luabind

import (
	"slices"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Touches is what the functions of one entry of a role file (a sensor, a
// reactive plan, an action, a named condition) do to the agent, read from
// the source without running it: the state variables they read and write (npc.state.NAME = ...,
// npc.state["NAME"] = ..., npc.squad.NAME = ... as "squad.NAME", npc:believe("NAME", ...), npc:forget("NAME"))
// and the goals they ask for (npc:achieve("NAME"), npc:achieve({"NAME", ...}),
// npc:achieve_with_result likewise), each once, in the
// order they first appear. Dynamic is true when a function writes a
// variable whose name is computed (npc.state[k] = ...), so Writes may be
// incomplete.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it.
type Touches struct {
	Writes   []string
	Reads    []string // npc.state.NAME read (not assigned), each once
	Achieves []string
	Dynamic  bool
	// Lines holds, for each name of Reads and Writes, the line (1-based)
	// where the entry first reads or writes it.
	Lines map[string]int
	// First and Last are the lines (1-based) the entry spans, to the end
	// of its last function: a caller can tell whether its source changed.
	First, Last int
}

// Scan is the parsed source of one role file, for Entry.
// A Scan is not changed after it is made: safe to read from many goroutines
// at once.
type Scan struct {
	chunk []ast.Stmt
	// byLine holds, for each line, the table constructors and calls
	// Entry may pick for it, in source order (a table under its own line
	// and the line of each field's value, a call under its own line and
	// its first argument's), each with what Entry asks of it, so that
	// Entry looks at those few and not at the whole file: a role of n
	// actions took n walks of its whole source (and of its actions list),
	// each as long as n.
	byLine map[int][]candidate
}

// candidate is a table constructor or call Entry may pick: for a table,
// the values of its name fields and its functions keyed by strings.
type candidate struct {
	e     ast.Expr
	names []string
	keyed map[string][]*ast.FunctionExpr
}

// entryCandidates indexes chunk's table constructors and calls by the
// lines Entry matches them on (Scan.byLine).
func entryCandidates(chunk []ast.Stmt) map[int][]candidate {
	by := map[int][]candidate{}
	add := func(line int, c candidate) {
		if l := by[line]; len(l) > 0 && l[len(l)-1].e == c.e {
			return
		}
		by[line] = append(by[line], c)
	}
	walker{expr: func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.TableExpr:
			c := candidate{e: x}
			for _, f := range x.Fields {
				k, ok := f.Key.(*ast.StringExpr)
				if !ok {
					continue
				}
				switch v := f.Value.(type) {
				case *ast.StringExpr:
					if k.Value == "name" {
						c.names = append(c.names, v.Value)
					}
				case *ast.FunctionExpr:
					if c.keyed == nil {
						c.keyed = map[string][]*ast.FunctionExpr{}
					}
					c.keyed[k.Value] = append(c.keyed[k.Value], v)
				}
			}
			add(x.Line(), c)
			for _, f := range x.Fields {
				if f.Value != nil {
					add(f.Value.Line(), c)
				}
			}
		case *ast.FuncCallExpr:
			add(x.Line(), candidate{e: x})
			if len(x.Args) > 0 {
				add(x.Args[0].Line(), candidate{e: x})
			}
		}
	}}.stmts(chunk)
	return by
}

// pick is what Entry(line, name) finds in c, indexed under line, or nil:
// pickEntry's answer for c alone.
func (c candidate) pick(line int, name string) ast.Expr {
	switch x := c.e.(type) {
	case *ast.TableExpr:
		// Indexed under line: the table begins on it or has a field on it.
		if name == "" {
			return x
		}
		for _, fn := range c.keyed[name] {
			if fn.Line() == line {
				return fn
			}
		}
		if slices.Contains(c.names, name) {
			return x
		}
	case *ast.FuncCallExpr:
		if name == "" || len(x.Args) == 0 {
			return nil
		}
		if v, ok := x.Args[0].(*ast.StringExpr); ok && v.Value == name && (x.Line() == line || v.Line() == line) {
			return x
		}
	}
	return nil
}

// ScanFile parses the Lua file at path (read from disk as it is now). An
// error is returned when it cannot be read or does not parse (LoadDomain
// reports such files better; call ScanFile after a load succeeded).
func ScanFile(path string) (*Scan, error) {
	src, err := readScript(path)
	if err != nil {
		return nil, err
	}
	chunk, err := parse.Parse(strings.NewReader(string(src)), path)
	if err != nil {
		return nil, err
	}
	return &Scan{chunk: chunk, byLine: entryCandidates(chunk)}, nil
}

// Entry returns what the functions of one table constructor do, with the
// functions they define inside: the table with the field name = NAME that
// begins on line (1-based) or has a field on it, or a call that takes
// NAME first on that line (mm.sensor("NAME", 1, function ... end)), or a
// function keyed NAME that begins on that line (conditions = { NAME =
// function(npc) ... end }); with name "", the
// innermost table that begins on line or has a field on it (an unnamed
// reactive plan, whose position is its on field). ok is false when no
// such table is in the file (an entry built by a helper function
// elsewhere, for example).
func (s *Scan) Entry(line int, name string) (t Touches, ok bool) {
	cands := s.byLine[line]
	if testHooks.entryLooked != nil {
		testHooks.entryLooked(len(cands))
	}
	var found ast.Expr
	for _, c := range cands {
		if e := c.pick(line, name); e != nil {
			found = e
			if name != "" {
				break // the first that fits; without a name, the innermost
			}
		}
	}
	if found == nil {
		return Touches{}, false
	}
	t.First, t.Last = found.Line(), found.Line()
	w := walker{expr: func(e ast.Expr) {
		t.note(e)
		if e.Line() > t.Last {
			t.Last = e.Line()
		}
		if f, isFn := e.(*ast.FunctionExpr); isFn && f.LastLine() > t.Last {
			t.Last = f.LastLine()
		}
	}}
	w.exprNode(found)
	return t, true
}

// pickEntry is the expression Entry(line, name) picks among those each
// hands to visit in source order (nil when none fits): with a name the
// first that fits, without one the last (the innermost table).
func pickEntry(line int, name string, each func(visit func(ast.Expr))) ast.Expr {
	var found ast.Expr
	visit := func(e ast.Expr) {
		if name != "" && found != nil {
			return
		}
		switch x := e.(type) {
		case *ast.TableExpr:
			at, named := x.Line() == line, name == ""
			for _, f := range x.Fields {
				// A keyed function: conditions = { NAME = function(npc) ... end }.
				if k, ok := f.Key.(*ast.StringExpr); ok && name != "" && k.Value == name {
					if fn, ok := f.Value.(*ast.FunctionExpr); ok && fn.Line() == line {
						found = fn
						return
					}
				}
				if f.Value != nil && f.Value.Line() == line {
					at = true
				}
				k, kok := f.Key.(*ast.StringExpr)
				v, vok := f.Value.(*ast.StringExpr)
				if kok && vok && k.Value == "name" && v.Value == name {
					named = true
				}
			}
			if at && named {
				found = x
			}
		case *ast.FuncCallExpr:
			// A helper that takes the name first: mm.sensor("NAME", ...).
			if name == "" || len(x.Args) == 0 {
				return
			}
			if v, ok := x.Args[0].(*ast.StringExpr); ok && v.Value == name && (x.Line() == line || v.Line() == line) {
				found = x
			}
		}
	}
	each(visit)
	return found
}

// note records what one expression does, if it writes state or asks for
// a goal; assignments are seen through their targets.
func (t *Touches) note(e ast.Expr) {
	switch x := e.(type) {
	case *ast.FuncCallExpr:
		if x.Receiver == nil || len(x.Args) == 0 {
			return
		}
		arg, ok := x.Args[0].(*ast.StringExpr)
		switch x.Method {
		case "believe", "forget":
			if ok {
				t.Writes = addOnce(t.Writes, arg.Value)
				t.line(arg.Value, x.Line())
			} else {
				t.Dynamic = true
			}
		case "achieve", "achieve_with_result":
			if tb, isTable := x.Args[0].(*ast.TableExpr); isTable && len(tb.Fields) > 0 && tb.Fields[0].Key == nil {
				arg, ok = tb.Fields[0].Value.(*ast.StringExpr) // a tuple goal {"name", ...}
			}
			if ok {
				t.Achieves = addOnce(t.Achieves, arg.Value)
			}
		}
	case *ast.AttrGetExpr:
		if obj, ok := x.Object.(*ast.AttrGetExpr); ok {
			if prefix, ok := stateTable(obj); ok {
				if v, ok := x.Key.(*ast.StringExpr); ok {
					t.Reads = addOnce(t.Reads, prefix+v.Value)
					t.line(prefix+v.Value, x.Line())
				}
			}
		}
	case *assignTarget:
		get := x.AttrGetExpr
		obj, ok := get.Object.(*ast.AttrGetExpr)
		if !ok {
			return
		}
		prefix, ok := stateTable(obj)
		if !ok {
			return
		}
		if k, ok := get.Key.(*ast.StringExpr); ok {
			t.Writes = addOnce(t.Writes, prefix+k.Value)
			t.line(prefix+k.Value, get.Line())
		} else {
			t.Dynamic = true
		}
	}
}

// stateTable reports whether obj is x.state or x.squad, whose fields are
// state variables, and the prefix of their names: "" for npc.state.NAME,
// "squad." for npc.squad.NAME (the squad variable "squad.NAME").
func stateTable(obj *ast.AttrGetExpr) (string, bool) {
	k, ok := obj.Key.(*ast.StringExpr)
	switch {
	case !ok:
		return "", false
	case k.Value == "state":
		return "", true
	case k.Value == squadScope:
		return squadScope + ".", true
	}
	return "", false
}

// line notes where name is first read or written.
func (t *Touches) line(name string, line int) {
	if t.Lines == nil {
		t.Lines = map[string]int{}
	}
	if _, ok := t.Lines[name]; !ok {
		t.Lines[name] = line
	}
}

func addOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// assignTarget marks an AttrGetExpr that is assigned to, so note can tell
// a write from a read.
type assignTarget struct{ *ast.AttrGetExpr }

// walker calls expr on every expression of a chunk, in source order,
// nested functions included; an assignment's targets are passed as
// *assignTarget.
type walker struct {
	expr func(ast.Expr)
}

func (w walker) stmts(list []ast.Stmt) {
	for _, s := range list {
		w.stmt(s)
	}
}

func (w walker) exprs(list []ast.Expr) {
	for _, e := range list {
		w.exprNode(e)
	}
}

func (w walker) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.AssignStmt:
		for _, l := range x.Lhs {
			if g, ok := l.(*ast.AttrGetExpr); ok {
				w.expr(&assignTarget{g})
				w.exprNode(g.Object)
				w.exprNode(g.Key)
				continue
			}
			w.exprNode(l)
		}
		w.exprs(x.Rhs)
	case *ast.LocalAssignStmt:
		w.exprs(x.Exprs)
	case *ast.FuncCallStmt:
		w.exprNode(x.Expr)
	case *ast.DoBlockStmt:
		w.stmts(x.Stmts)
	case *ast.WhileStmt:
		w.exprNode(x.Condition)
		w.stmts(x.Stmts)
	case *ast.RepeatStmt:
		w.stmts(x.Stmts)
		w.exprNode(x.Condition)
	case *ast.IfStmt:
		w.exprNode(x.Condition)
		w.stmts(x.Then)
		w.stmts(x.Else)
	case *ast.NumberForStmt:
		w.exprs([]ast.Expr{x.Init, x.Limit, x.Step})
		w.stmts(x.Stmts)
	case *ast.GenericForStmt:
		w.exprs(x.Exprs)
		w.stmts(x.Stmts)
	case *ast.FuncDefStmt:
		w.exprNode(x.Func)
	case *ast.ReturnStmt:
		w.exprs(x.Exprs)
	}
}

func (w walker) exprNode(e ast.Expr) {
	if e == nil {
		return
	}
	w.expr(e)
	switch x := e.(type) {
	case *ast.AttrGetExpr:
		w.exprNode(x.Object)
		w.exprNode(x.Key)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			w.exprNode(f.Key)
			w.exprNode(f.Value)
		}
	case *ast.FuncCallExpr:
		w.exprNode(x.Func)
		w.exprNode(x.Receiver)
		w.exprs(x.Args)
	case *ast.LogicalOpExpr:
		w.exprs([]ast.Expr{x.Lhs, x.Rhs})
	case *ast.RelationalOpExpr:
		w.exprs([]ast.Expr{x.Lhs, x.Rhs})
	case *ast.StringConcatOpExpr:
		w.exprs([]ast.Expr{x.Lhs, x.Rhs})
	case *ast.ArithmeticOpExpr:
		w.exprs([]ast.Expr{x.Lhs, x.Rhs})
	case *ast.UnaryMinusOpExpr:
		w.exprNode(x.Expr)
	case *ast.UnaryNotOpExpr:
		w.exprNode(x.Expr)
	case *ast.UnaryLenOpExpr:
		w.exprNode(x.Expr)
	case *ast.FunctionExpr:
		w.stmts(x.Stmts)
	}
}

// CheckIgnore returns the findings of moonmind check that the role file
// silences, from its check_ignore field: each entry of a list
// (check_ignore = { "sensor-write:hunger" }) with the reason "", or each
// key of a table with its reason (check_ignore = { ["sensor-write:hunger"]
// = "the stomach only raises it" }). Entries that are not strings are
// left out. nil when the file has no check_ignore.
func (s *Scan) CheckIgnore() map[string]string {
	var out map[string]string
	w := walker{expr: func(e ast.Expr) {
		tb, ok := e.(*ast.TableExpr)
		if !ok || out != nil {
			return
		}
		for _, f := range tb.Fields {
			if k, ok := f.Key.(*ast.StringExpr); !ok || k.Value != "check_ignore" {
				continue
			}
			list, ok := f.Value.(*ast.TableExpr)
			if !ok {
				continue
			}
			out = map[string]string{}
			for _, g := range list.Fields {
				k, kok := g.Key.(*ast.StringExpr)
				v, vok := g.Value.(*ast.StringExpr)
				switch {
				case g.Key == nil && vok:
					out[v.Value] = ""
				case kok && vok:
					out[k.Value] = v.Value
				}
			}
		}
	}}
	w.stmts(s.chunk)
	return out
}
