package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind"
)

// runSpec is one positional argument of `moonmind run`: [NAME=]FILE.
type runSpec struct {
	name string // "" when the agent takes its role's name
	file string
}

// parseRunAgents reads the [NAME=]FILE arguments. A NAME is a word of
// letters, digits, '_' and '-'; anything else before '=' is part of the
// file name. Names must be unique.
func parseRunAgents(pos []string) ([]runSpec, error) {
	if len(pos) == 0 {
		return nil, errors.New("expected one or more role files ([NAME=]FILE...)")
	}
	var out []runSpec
	seen := map[string]bool{}
	for _, p := range pos {
		s := runSpec{file: p}
		if name, file, ok := strings.Cut(p, "="); ok && isAgentName(name) {
			if file == "" {
				return nil, errors.New(p + ": expected NAME=FILE")
			}
			if seen[name] {
				return nil, errors.New("two agents are named " + name)
			}
			seen[name] = true
			s = runSpec{name: name, file: file}
		}
		out = append(out, s)
	}
	return out, nil
}

func isAgentName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// loadRunDomains loads every role file once per worker, each worker in its
// own Lua runtime with the training ground's host methods. domains[k][i]
// is file i on worker k, loaded by runtime k. The returned function closes
// the runtimes.
// hostOf gives the host methods of a worker's training ground.
func loadRunDomains(specs []runSpec, workers int, dir string, hostOf func(*trainingGround) map[string]luabind.HostFunc,
	llmOpts luabind.LLMOptions) ([][]*engine.Domain, []*luabind.Runtime, func(), error) {
	var rts []*luabind.Runtime
	var llms []*luabind.LLM
	closeAll := func() {
		for _, l := range llms {
			l.Close() // its requests first: they answer into the runtime
		}
		for _, rt := range rts {
			rt.Close()
		}
	}
	domains := make([][]*engine.Domain, workers)
	for k := range domains {
		ground := newTrainingGround()
		rt := luabind.NewRuntime(luabind.Options{Host: hostOf(ground), ScriptsDir: dir})
		rts = append(rts, rt)
		l, err := rt.EnableLLM(llmOpts)
		if err != nil {
			return nil, nil, closeAll, err
		}
		llms = append(llms, l)
		byFile := map[string]*engine.Domain{}
		for _, s := range specs {
			d := byFile[filepath.Clean(s.file)]
			if d == nil {
				var err error
				if d, err = rt.LoadDomain(s.file); err != nil {
					return nil, nil, closeAll, errors.New(loadErrorText("run", err))
				}
				byFile[filepath.Clean(s.file)] = d
			}
			domains[k] = append(domains[k], d)
		}
	}
	return domains, rts, closeAll, nil
}

// runAgent is one agent to create: its name and which spec it carries.
type runAgent struct {
	name string
	spec int
}

// runAgents names the agents: with one file, n agents (the role's name,
// numbered role#1... when n > 1); with several, one agent per file, named
// NAME, else by its role with a number (Role#1, Role#2) when several
// unnamed agents carry the same role.
func runAgents(specs []runSpec, domains []*engine.Domain, n int) []runAgent {
	if len(specs) == 1 && specs[0].name == "" {
		out := make([]runAgent, n)
		for i := range out {
			out[i].name = domains[0].Name
			if n > 1 {
				out[i].name = fmt.Sprintf("%s#%d", domains[0].Name, i+1)
			}
		}
		return out
	}
	if len(specs) == 1 {
		out := make([]runAgent, n)
		for i := range out {
			out[i].name = specs[0].name
			if n > 1 {
				out[i].name = fmt.Sprintf("%s#%d", specs[0].name, i+1)
			}
		}
		return out
	}
	count := map[string]int{}
	for i, s := range specs {
		if s.name == "" {
			count[domains[i].Name]++
		}
	}
	seen := map[string]int{}
	out := make([]runAgent, len(specs))
	for i, s := range specs {
		out[i] = runAgent{name: s.name, spec: i}
		if s.name == "" {
			role := domains[i].Name
			out[i].name = role
			if count[role] > 1 {
				seen[role]++
				out[i].name = fmt.Sprintf("%s#%d", role, seen[role])
			}
		}
	}
	return out
}

// statesFor returns the --state flags that apply to an agent of domain d.
// With one role file every flag applies (an unknown variable is an
// error); with several, a flag applies to the agents whose role has the
// variable, and one that no role has is kept so that it is reported.
func statesFor(d *engine.Domain, states []string, all []*engine.Domain, several bool) []string {
	if !several {
		return states
	}
	var out []string
	for _, kv := range states {
		k, _, _ := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if _, ok := d.Schema.Lookup(k); ok {
			out = append(out, kv)
			continue
		}
		known := false
		for _, o := range all {
			_, ok := o.Schema.Lookup(k)
			known = known || ok
		}
		if !known {
			out = append(out, kv)
		}
	}
	return out
}
