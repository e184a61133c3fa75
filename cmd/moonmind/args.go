package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"io"
	"path/filepath"
	"strings"

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
	for {
		if err := fs.Parse(args); err != nil {
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

// applyStates sets each k=v on st, parsing v like an effect literal.
func applyStates(d *engine.Domain, st engine.State, kvs []string) error {
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return errors.New("--state " + kv + ": expected name=value")
		}
		val, err := expr.ParseLiteral(v)
		if err != nil {
			var pe *engine.ParseError
			if errors.As(err, &pe) {
				return errors.New("--state " + kv + ": value " + pe.Message())
			}
			return errors.New("--state " + kv + ": " + err.Error())
		}
		if init := d.Initial.Get(d.Schema, k); init.IsKnown() && init.Kind() != engine.Nil && val.Kind() != init.Kind() {
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
func loadWithState(cmd string, pos []string, states []string, stderr io.Writer) (*luabind.Runtime, *engine.Domain, engine.State, int) {
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "moonmind %s: expected one role file, got %d\n", cmd, len(pos))
		return nil, nil, nil, 2
	}
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(pos[0])})
	d, err := rt.LoadDomain(pos[0])
	if err != nil {
		rt.Close()
		fmt.Fprintln(stderr, err)
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
	a.OnEvent = func(e engine.Event) {
		if e.Kind == engine.EventConditionFailed {
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
