package luabind

import (
	"errors"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/engine"
)

// domainRecord is a domain this runtime compiled: the role files it was
// loaded from and every file the load read (parents, modules).
type domainRecord struct {
	paths   []string
	files   map[string]bool
	objects []*objectDecl // the smart objects its role files declare (load_objects.go)
	// llmModel is the role-level llm_model (see loadedRole.model).
	llmModel string
}

// Reload recompiles every domain this runtime loaded that read path (a
// role file, a parent role or a required module) and swaps each new
// domain into the given agents that carry the old one, keeping their state
// by variable name (engine.Agent.SetDomain; running bodies are
// interrupted). It returns how many agents it updated. When any of the
// domains fails to load, nothing changes: the old scripts keep running and
// the error lists every problem as "file:line:col: message". Call it
// between ticks, on the runtime's goroutine: called while a script of
// this runtime runs (a host method an action body called, say), it
// changes nothing and returns an error saying so; set a flag there and
// reload after the tick.
func (r *Runtime) Reload(path string, agents []*engine.Agent) (int, error) {
	if r.closed {
		return 0, errClosed
	}
	if r.budget.armed || r.running != nil || r.current != nil {
		return 0, errors.New("luabind: reload " + path + ": a script of this runtime is running (an action body, or a host method it called); reload between ticks")
	}
	key := filepath.Clean(r.resolve(path))
	var olds []*engine.Domain
	for d, rec := range r.domains {
		if rec.files[key] {
			olds = append(olds, d)
		}
	}
	if len(olds) == 0 {
		return 0, errors.New("luabind: reload " + path + ": no domain of this runtime was loaded from that file")
	}
	// Modules run again, so a changed module is read afresh. The loaded
	// ones stay in use by the old domains until the swap.
	saved := r.modules
	r.modules = map[string]*module{}
	if m, ok := saved["\x00moonmind"]; ok {
		r.modules["\x00moonmind"] = m
	}
	news := make(map[*engine.Domain]*engine.Domain, len(olds))
	for _, old := range olds {
		d, err := r.LoadDomain(r.domains[old].paths...)
		if err != nil {
			for nd := range r.domainsOf(news) {
				delete(r.domains, nd)
			}
			r.modules = saved
			return 0, err
		}
		news[old] = d
	}
	n := 0
	for _, a := range agents {
		if d, ok := news[a.Domain]; ok {
			a.SetDomain(d)
			n++
		}
	}
	for old := range news {
		delete(r.domains, old)
	}
	return n, nil
}

func (r *Runtime) domainsOf(m map[*engine.Domain]*engine.Domain) map[*engine.Domain]bool {
	out := make(map[*engine.Domain]bool, len(m))
	for _, d := range m {
		out[d] = true
	}
	return out
}
