package luabind

import (
	"reflect"
	"strconv"

	"github.com/yuin/gopher-lua/ast"
)

// tableChunkConsts is the most constants (string and number literals and
// global names) that one table constructor leaves in the function it is
// written in; a bigger one is built in chunks of about this many, each in
// a function of its own (see splitBigTables).
const tableChunkConsts = 256

// tableVar is the name of the table a chunked constructor fills. It is not
// a Lua name, so no script's name can mean it.
const tableVar = "(table)"

var (
	funcExprType = reflect.TypeFor[*ast.FunctionExpr]()
	tableExprPtr = reflect.TypeFor[*ast.TableExpr]()
)

// splitBigTables rewrites, in a parsed chunk, every table constructor
// that would put more than tableChunkConsts constants into its function
// into a call that builds the same table in chunks:
//
//	(function(t) (function(t) t.a = 1 ... end)(t) ... return t end)({})
//
// gopher-lua's compiler looks each constant up in a list of the function's
// constants, one by one, so a role with 40,000 state variables took half a
// minute to compile; in chunks each lookup scans at most one chunk's
// constants, and compiling is linear in the file's size. Fields are set in
// the order they are written, as the constructor sets them, so the table
// is the same; a constructor that could differ (varargs in a field, a
// positional nil, a last positional field that is a call or ...,
// positional fields beside keys that are not names) is left as written.
func splitBigTables(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		if v.Type() == exprType && v.CanSet() && v.Elem().Type() == tableExprPtr {
			return splitTable(v)
		}
		return splitBigTables(v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		switch x := v.Interface().(type) {
		case *ast.FunctionExpr:
			splitBigTables(reflect.ValueOf(x).Elem()) // its constants are its own
			return 0
		case *ast.StringExpr, *ast.NumberExpr, *ast.IdentExpr:
			return 1
		}
		return splitBigTables(v.Elem())
	case reflect.Slice:
		n := 0
		for i := range v.Len() {
			n += splitBigTables(v.Index(i))
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				n += splitBigTables(f)
			}
		}
		return n
	}
	return 0
}

// splitTable handles the table constructor in the settable expression v:
// it splits the constructors inside it first, then this one if it is
// still too big, and returns the constants it leaves in its function.
func splitTable(v reflect.Value) int {
	t := v.Interface().(*ast.TableExpr)
	weights := make([]int, len(t.Fields))
	total := 0
	for i, f := range t.Fields {
		weights[i] = splitBigTables(reflect.ValueOf(f).Elem())
		total += weights[i]
	}
	if total <= tableChunkConsts || !chunkable(t) {
		return total
	}
	v.Set(reflect.ValueOf(chunkedTable(t, weights)))
	return 0 // the chunks hold the constants
}

// chunkable reports whether setting t's fields one by one, in order,
// builds the same table as its constructor.
func chunkable(t *ast.TableExpr) bool {
	positional, otherKeys := false, false
	for i, f := range t.Fields {
		if f.Key == nil {
			positional = true
			switch f.Value.(type) {
			case *ast.NilExpr:
				return false // a hole: # could differ
			case *ast.FuncCallExpr, *ast.Comma3Expr:
				if i == len(t.Fields)-1 {
					return false // expands to all its values
				}
			}
		} else if _, ok := f.Key.(*ast.StringExpr); !ok {
			otherKeys = true
		}
		if hasVarargs(reflect.ValueOf(f).Elem()) {
			return false
		}
	}
	// The constructor sets positional fields after keyed ones; a key that
	// may be a number could meet a position.
	return !(positional && otherKeys)
}

// hasVarargs reports whether v uses ... outside a function of its own.
func hasVarargs(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() || v.Type() == funcExprType {
			return false
		}
		if _, ok := v.Interface().(*ast.Comma3Expr); ok {
			return true
		}
		if v.Kind() == reflect.Interface && v.Elem().Type() == funcExprType {
			return false
		}
		return hasVarargs(v.Elem())
	case reflect.Slice:
		for i := range v.Len() {
			if hasVarargs(v.Index(i)) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() && hasVarargs(f) {
				return true
			}
		}
	}
	return false
}

// chunkedTable is the call that builds t in chunks of about
// tableChunkConsts constants (weights are its fields' constants).
func chunkedTable(t *ast.TableExpr, weights []int) ast.Expr {
	line := t.Line()
	at := func(e ast.Expr, l int) ast.Expr { e.SetLine(l); e.SetLastLine(l); return e }
	ident := func(l int) ast.Expr { return at(&ast.IdentExpr{Value: tableVar}, l) }
	var body []ast.Stmt
	var chunk []ast.Stmt
	sum, pos := 0, 0
	flush := func() {
		if len(chunk) == 0 {
			return
		}
		fn := at(&ast.FunctionExpr{ParList: &ast.ParList{Names: []string{tableVar}}, Stmts: chunk}, chunk[0].Line())
		call := at(&ast.FuncCallExpr{Func: fn, Args: []ast.Expr{ident(chunk[0].Line())}}, chunk[0].Line())
		st := &ast.FuncCallStmt{Expr: call}
		st.SetLine(chunk[0].Line())
		st.SetLastLine(chunk[0].Line())
		body = append(body, st)
		chunk, sum = nil, 0
	}
	for i, f := range t.Fields {
		l := f.Value.Line()
		key := f.Key
		if key == nil {
			pos++
			key = at(&ast.NumberExpr{Value: strconv.Itoa(pos)}, l)
		}
		if sum > 0 && sum+weights[i] > tableChunkConsts {
			flush()
		}
		st := &ast.AssignStmt{Lhs: []ast.Expr{at(&ast.AttrGetExpr{Object: ident(l), Key: key}, l)}, Rhs: []ast.Expr{f.Value}}
		st.SetLine(l)
		st.SetLastLine(l)
		chunk = append(chunk, st)
		sum += weights[i] + 1
	}
	flush()
	ret := &ast.ReturnStmt{Exprs: []ast.Expr{ident(t.LastLine())}}
	ret.SetLine(t.LastLine())
	ret.SetLastLine(t.LastLine())
	body = append(body, ret)
	fn := at(&ast.FunctionExpr{ParList: &ast.ParList{Names: []string{tableVar}}, Stmts: body}, line)
	call := &ast.FuncCallExpr{Func: fn, Args: []ast.Expr{at(&ast.TableExpr{}, line)}, AdjustRet: true}
	call.SetLine(line)
	call.SetLastLine(t.LastLine())
	return call
}
