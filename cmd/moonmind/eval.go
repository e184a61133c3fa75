package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// moonmind eval and moonmind apply try the condition and effect languages
// on a state given on the command line, without a role file:
//
//	moonmind eval --state ammo=12 --state mode=patrol 'ammo > 10 && mode == "patrol"'
//	true
//	moonmind apply --state x=0 'x = x + 15.1, mode = ATTACK'
//	{"mode":"ATTACK","x":15.1}
//
// Each --state k=v value is parsed by stateLiteral, like the right-hand
// side of an effect: a number, true, false, nil, a quoted string, or a bare
// word, which is a string; inf and -inf are the infinite numbers and nan is
// refused. Exit status: 0 on success (eval prints false when
// the condition does not hold), 2 on a parse error (printed with a caret), an
// effect that cannot apply, or a bad argument.

func init() {
	commands["eval"] = command{what: "evaluate a condition on a state", usage: "eval [--state k=v]... EXPR", run: evalCmd}
	commands["apply"] = command{what: "apply effects to a state and print the result as JSON", usage: "apply [--state k=v]... EFFECTS", run: applyCmd}
}

func evalCmd(args []string, stdout, stderr io.Writer) int {
	sc, st, src, code := exprArgs("eval", "EXPR", args, stderr)
	if code != 0 {
		return code
	}
	c, err := expr.CompileCondition(src, sc)
	if err != nil {
		printExprError(stderr, "moonmind eval: ", err)
		return 2
	}
	st = grow(st, sc.Len())
	var missing []string
	for _, slot := range c.Reads() {
		if !st[slot].IsKnown() {
			missing = append(missing, sc.Name(slot))
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "moonmind eval: not set: %s; a condition that reads a missing variable does not hold\n",
			strings.Join(missing, ", "))
	}
	fmt.Fprintln(stdout, c.Eval(st))
	return 0
}

func applyCmd(args []string, stdout, stderr io.Writer) int {
	sc, st, src, code := exprArgs("apply", "EFFECTS", args, stderr)
	if code != 0 {
		return code
	}
	e, err := expr.CompileEffect(src, sc)
	if err != nil {
		printExprError(stderr, "moonmind apply: ", err)
		return 2
	}
	st = grow(st, sc.Len())
	if err := e.ApplyInPlace(st); err != nil {
		printExprError(stderr, "moonmind apply: ", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s\n", st.JSON(sc))
	return 0
}

// exprArgs parses the --state flags and the one expression of eval and
// apply. The schema holds the state's names in the order given; a name
// given twice keeps its last value. code is non-zero when the arguments are
// bad, after the problem is printed.
func exprArgs(name, what string, args []string, stderr io.Writer) (sc *expr.Schema, st expr.State, src string, code int) {
	fs := newFlagSet(name, stderr)
	var states stateFlags
	fs.Var(&states, "state", stateUsage)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, nil, "", 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "moonmind %s: expected one %s argument (quote it), got %d\n", name, what, len(pos))
		return nil, nil, "", 2
	}
	sc = expr.NewSchema()
	for _, kv := range states {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || !isName(k) {
			fmt.Fprintf(stderr, "moonmind %s: --state %s: expected name=value, the name a letter or _ then letters, digits, _ or .\n", name, kv)
			return nil, nil, "", 2
		}
		val, err := stateLiteral(v, false)
		if err != nil {
			printExprError(stderr, "moonmind "+name+": --state "+kv+": value ", err)
			return nil, nil, "", 2
		}
		slot := sc.Intern(k)
		st = grow(st, slot+1)
		st[slot] = val
	}
	return sc, st, pos[0], 0
}

// grow extends st with Unknown values to n slots.
func grow(st expr.State, n int) expr.State {
	for len(st) < n {
		st = append(st, expr.Value{})
	}
	return st
}

// isName reports whether k can name a state variable in the languages.
func isName(k string) bool {
	switch k {
	case "", "true", "false", "nil", "null":
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c != '.' && (c < '0' || c > '9')) {
			return false
		}
	}
	return true
}

// printExprError prints a parse error as its message, then the text with a
// caret under the column, both after prefix; any other error as it is.
func printExprError(w io.Writer, prefix string, err error) {
	var pe *expr.ParseError
	if errors.As(err, &pe) {
		fmt.Fprintf(w, "%s%s\n\t%s\n", prefix, pe.Message(), strings.ReplaceAll(pe.Caret(), "\n", "\n\t"))
		return
	}
	// Errors of engine and engine/expr keep their message apart from the
	// package prefix.
	if m, ok := err.(interface{ Message() string }); ok {
		fmt.Fprintf(w, "%s%s\n", prefix, m.Message())
		return
	}
	var ee *expr.EffectError
	if errors.As(err, &ee) {
		fmt.Fprintf(w, "%s%s\n", prefix, ee.Message())
		return
	}
	fmt.Fprintf(w, "%s%s\n", prefix, err.Error())
}
