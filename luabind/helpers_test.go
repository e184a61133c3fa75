package luabind

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/stretchr/testify/require"
)

// testBudget keeps runaway tests quick under -race.
const testBudget = 100_000

// world is a small world of agents, each with one role file, and the
// events they made.
type world struct {
	w      *engine.World
	agents map[string]*engine.Agent
	events []record.Event
}

// newWorld loads each role file (under testdata) into rt once and adds one
// agent per name, carrying files[i]; agents of one file share its domain.
func newWorld(t *testing.T, rt *Runtime, names []string, files []string) *world {
	t.Helper()
	wd := &world{w: engine.NewWorld(1), agents: map[string]*engine.Agent{}}
	wd.w.OnEvent = func(e record.Event) { wd.events = append(wd.events, e) }
	domains := map[string]*engine.Domain{}
	for i, name := range names {
		d, ok := domains[files[i]]
		if !ok {
			var err error
			d, err = rt.LoadDomain(filepath.Join("testdata", files[i]))
			require.NoError(t, err, files[i])
			domains[files[i]] = d
		}
		a := engine.NewAgent(name, d)
		wd.w.Add(a)
		wd.agents[name] = a
	}
	return wd
}

func (wd *world) run(ticks int, dt float64) {
	for range ticks {
		wd.w.Tick(dt)
	}
}

// first returns the first event of that kind for that agent, or nil.
func (wd *world) first(agent string, kind record.EventKind) *record.Event {
	for i := range wd.events {
		if wd.events[i].Agent == agent && wd.events[i].Kind == kind {
			return &wd.events[i]
		}
	}
	return nil
}

// reportWorld runs two agents of the role file in dir (under testdata),
// "victim" then "attacker", for 20 ticks of 0.1 s, with the host method
// report (each call one line "agent: message" of reports) and the host
// methods of extra. It returns the reports, the reasons of the agents'
// fail records ("agent: reason") and the two agents.
func reportWorld(t *testing.T, dir, file string, extra map[string]HostFunc) (reports, fails []string, victim, attacker *engine.Agent) {
	t.Helper()
	host := map[string]HostFunc{
		"report": func(c *HostCall) (bool, error) {
			msg, _ := c.Args[0].AsString()
			reports = append(reports, c.Agent.Name+": "+msg)
			return true, nil
		},
	}
	maps.Copy(host, extra)
	rt := NewRuntime(Options{ScriptsDir: dir, Print: func(string) {}, Host: host})
	defer rt.Close()
	d, err := rt.LoadDomain(file)
	require.NoError(t, err)
	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		if e.Kind == record.EventFail {
			fails = append(fails, e.Agent+": "+e.Reason)
		}
	}
	victim, attacker = engine.NewAgent("victim", d), engine.NewAgent("attacker", d)
	w.Add(victim)
	w.Add(attacker)
	for range 20 {
		w.Tick(0.1)
	}
	return reports, fails, victim, attacker
}
