package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
)

// stateFlags collects repeated --state k=v flags.
type stateFlags []string

func (s *stateFlags) String() string     { return strings.Join(*s, ",") }
func (s *stateFlags) Set(v string) error { *s = append(*s, v); return nil }

// parseInterleaved parses flags that may come before or after positional
// arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	out := fs.Output()
	for {
		fs.SetOutput(io.Discard) // flagError says what went wrong, in the double-dash spelling
		err := fs.Parse(args)
		fs.SetOutput(out)
		if err != nil {
			flagError(fs, err)
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("moonmind "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	// parseInterleaved prints the usage or the long help after a parse
	// error, so the flag package's own usage is silenced.
	fs.Usage = func() {}
	return fs
}

// stateUsage is the --state flag's help, the same for every command
// (moonmind run's says whose variable: stateValues is the shared part).
const stateUsage = "set a state variable, name=value (repeatable)" + stateValues

// stateValues says how --state reads a value (stateLiteral).
const stateValues = ";\n      the value is written as in an effect (a number, true, false, nil, a quoted string, or a bare\n" +
	"      word, which is text); inf and -inf (infinity, any case) are the infinite numbers, as math.huge\n" +
	"      in Lua; nan is refused, since no state can hold it (quote it, 'nan', for the text; a variable\n" +
	"      the role gives a string keeps every bare word as text)"

// stateLiteral parses the value of --state name=value as the right-hand
// side of an effect (expr.ParseLiteral), except for the words a designer
// writes for the numbers a literal cannot spell: inf, +inf, -inf and
// infinity (any case) are the infinite numbers (as math.huge in Lua), and
// nan is refused with an error saying why (state never holds NaN: Lua
// cannot store it, and it would equal nothing). text is true when the
// role's variable holds a string: then every bare word, these too, is
// text, as it was. A quoted 'nan' is always text.
func stateLiteral(v string, text bool) (expr.Value, error) {
	if !text {
		word := strings.ToLower(strings.TrimSpace(v))
		sign := 1.0
		if rest, ok := strings.CutPrefix(word, "-"); ok {
			word, sign = rest, -1
		} else {
			word = strings.TrimPrefix(word, "+")
		}
		switch word {
		case "inf", "infinity":
			return expr.NumberValue(math.Inf(int(sign))), nil
		case "nan":
			return expr.Value{}, nanValue(strings.TrimSpace(v))
		}
	}
	return expr.ParseLiteral(v)
}

// nanValue is stateLiteral's error for nan, holding the text written.
type nanValue string

func (v nanValue) Error() string {
	return string(v) + " is not a number state can hold (NaN equals nothing, not even itself, and Lua refuses to store it); " +
		"quote it, '" + string(v) + "', for the text"
}

// applyStates sets each k=v on st, parsing v with stateLiteral.
func applyStates(d *engine.Domain, st expr.State, kvs []string) error {
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return errors.New("--state " + kv + ": expected name=value")
		}
		init := d.Initial.Get(d.Schema, k)
		val, err := stateLiteral(v, init.IsKnown() && init.Kind() == expr.String)
		if err != nil {
			var pe *expr.ParseError
			if errors.As(err, &pe) {
				return errors.New("--state " + kv + ": value " + pe.Message())
			}
			var nan nanValue
			if errors.As(err, &nan) {
				return errors.New("--state " + kv + ": value " + err.Error())
			}
			return errors.New("--state " + kv + ": " + err.Error())
		}
		if init.IsKnown() && init.Kind() != expr.Nil && val.Kind() != init.Kind() {
			return errors.New("--state " + kv + ": " + k + " holds a " + init.Kind().String() + " in the role (" +
				init.String() + "), and " + strings.TrimSpace(v) + " is a " + val.Kind().String())
		}
		if !st.Set(d.Schema, k, val) {
			return errors.New("--state " + kv + ": the role has no state variable \"" + k + "\"" +
				engine.DidYouMean(k, d.Schema.Names()))
		}
	}
	return nil
}

// loadWithState loads one role file for a command and applies --state
// flags to a copy of its initial state. On failure it prints the error and
// returns exit status 2; the caller closes the runtime.
func loadWithState(cmd string, pos []string, states []string, stderr io.Writer) (*luabind.Runtime, *engine.Domain, expr.State, int) {
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "moonmind %s: expected one role file, got %d\n", cmd, len(pos))
		return nil, nil, nil, 2
	}
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(pos[0])})
	d, err := rt.LoadDomain(pos[0])
	if err != nil {
		rt.Close()
		fmt.Fprintln(stderr, loadErrorText(cmd, err))
		return nil, nil, nil, 2
	}
	// An agent evaluates the role's named conditions on that state, as the
	// tick does before it decides.
	a := newAgent("cli", d)
	if err := applyStates(d, a.State, states); err != nil {
		rt.Close()
		fmt.Fprintf(stderr, "moonmind %s: %v\n", cmd, err)
		return nil, nil, nil, 2
	}
	var failed []string
	a.OnEvent = func(e record.Event) {
		if e.Kind == record.EventConditionFailed {
			failed = append(failed, "named condition "+e.Action+": "+e.Reason)
		}
	}
	a.RefreshConditions()
	if len(failed) > 0 {
		rt.Close()
		fmt.Fprintf(stderr, "moonmind %s: %s\n", cmd, strings.Join(failed, "\n"))
		return nil, nil, nil, 2
	}
	return rt, d, a.State, 0
}

// loadErrorText is how a command prints an error loading a role: as it
// is when it names its own place (file:line:col: ...), else after the
// command's name instead of the library's package ("moonmind plan: open
// x.lua: no such file or directory", not "luabind: open ...").
func loadErrorText(cmd string, err error) string {
	msg := err.Error()
	if placed.MatchString(msg) {
		return msg
	}
	for _, pkg := range []string{"luabind: ", "engine: "} {
		msg = strings.TrimPrefix(msg, pkg)
	}
	return "moonmind " + cmd + ": " + msg
}

// placed matches an error that begins with its place: "file:line:" or
// "file:line:col:".
var placed = regexp.MustCompile(`^[^ ]+?:\d+:(\d+:)? `)
