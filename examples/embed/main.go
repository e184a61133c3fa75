// Command embed is a small text-mode game that embeds moonmind: a farmer
// whose mind is written in Go and a trader whose mind is a Lua role
// (trader.lua) share a market stall. The game owns the market; the agents
// read it through a sensor and change it through an action body and host
// methods. It prints what the agents do, then the market each second.
//
// Run it from the repository root:
//
//	go run ./examples/embed
//	go run ./examples/embed -seconds 10 -scripts examples/embed
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
	"github.com/moonmind-ai/moonmind/luabind"
)

// TPS is the game's fixed tick rate: ticks per second.
const TPS = 10

// market is the game's own state, which the engine knows nothing about.
type market struct {
	grain int // sacks on the stall
	sold  int // sacks sold in all
}

func main() {
	seconds := flag.Int("seconds", 6, "seconds of game time to run")
	scripts := flag.String("scripts", "examples/embed", "the folder with trader.lua")
	flag.Parse()
	if err := run(os.Stdout, *scripts, *seconds); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run plays the game for seconds of game time at TPS ticks per second,
// writing its text to out. An error means a role did not load.
func run(out io.Writer, scriptsDir string, seconds int) error {
	m := &market{}
	farmer, err := farmerDomain(m)
	if err != nil {
		return err
	}
	rt := luabind.NewRuntime(luabind.Options{
		ScriptsDir: scriptsDir,
		Host: map[string]luabind.HostFunc{
			// local ok, price = npc:buy("grain"): answers at once, with results.
			"buy": func(c *luabind.HostCall) (bool, error) {
				if m.grain == 0 {
					c.Results = []expr.Value{expr.BoolValue(false), expr.NumberValue(0)}
					return true, nil
				}
				m.grain--
				m.sold++
				c.Results = []expr.Value{expr.BoolValue(true), expr.NumberValue(2)}
				return true, nil
			},
			// npc:say(text): the game shows a speech bubble; here, a line.
			"say": func(c *luabind.HostCall) (bool, error) {
				text, _ := c.Args[0].AsString()
				fmt.Fprintf(out, "  %s says: %q\n", c.Agent.Name, text)
				return true, nil
			},
		},
	})
	defer rt.Close()
	trader, err := rt.LoadDomain(filepath.Join(scriptsDir, "trader.lua"))
	if err != nil {
		return err // every problem of the script, as file:line:col: message
	}

	w := engine.NewWorld(1)
	w.OnEvent = func(e record.Event) {
		switch e.Kind {
		case record.EventPlan:
			fmt.Fprintf(out, "  %s plans %s for %s\n", e.Agent, strings.Join(e.Plan, ", "), e.Goal)
		case record.EventPick:
			fmt.Fprintf(out, "  %s picks %s\n", e.Agent, e.Action)
		case record.EventFinish:
			fmt.Fprintf(out, "  %s finished %s\n", e.Agent, e.Action)
		case record.EventFail:
			fmt.Fprintf(out, "  %s failed %s: %s\n", e.Agent, e.Action, e.Reason)
		}
	}
	w.Add(engine.NewAgent("farmer", farmer))
	w.Add(engine.NewAgent("trader", trader))

	for tick := 1; tick <= seconds*TPS; tick++ {
		// The game's own sensor for the Lua role: it sees the stall.
		w.Agent("trader").Set("market_grain", expr.NumberValue(float64(m.grain)))
		w.Tick(1.0 / TPS)
		if tick%TPS == 0 {
			t := w.Agent("trader")
			fmt.Fprintf(out, "second %d: stall %d, sold %d, trader has %s coins\n",
				tick/TPS, m.grain, m.sold, t.Get("coins"))
		}
	}
	return nil
}

// farmerDomain is a role written in Go alone: a sensor reads the stall, a
// multi-tick body harvests and a one-tick body puts grain on the stall.
func farmerDomain(m *market) (*engine.Domain, error) {
	return engine.Compile(engine.RoleSpec{
		Name:  "Farmer",
		State: []engine.Var{{Name: "grain", Value: expr.NumberValue(0)}, {Name: "stall", Value: expr.NumberValue(0)}},
		Goals: []engine.GoalSpec{engine.NewGoal("stocked", "stall >= 2", engine.Normal)},
		Actions: []engine.ActionSpec{
			engine.NewAction("harvest").Effects("grain = grain + 1").Body(harvest{seconds: 0.3}).Spec(),
			engine.NewAction("sell").Pre("grain > 0").Effects("grain = grain - 1, stall = stall + 1").Fulfills("stocked").
				Body(engine.BodyFunc(func(a *engine.Agent, act *engine.Action) (engine.Status, error) {
					m.grain++
					return engine.ApplyEffects(a, act)
				})).Spec(),
		},
		Sensors: []engine.SensorSpec{{Name: "stall", Run: func(a *engine.Agent, dt float64) error {
			a.Set("stall", expr.NumberValue(float64(m.grain)))
			return nil
		}}},
	})
}

// harvest is a Go body that takes game time: Resume reports Running until
// seconds have passed, then the grain is in.
type harvest struct{ seconds float64 }

func (h harvest) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &harvestTask{a: a, act: act, left: h.seconds}, nil
}

type harvestTask struct {
	a    *engine.Agent
	act  *engine.Action
	left float64
}

func (t *harvestTask) Resume(dt float64) (engine.Status, error) {
	if t.left -= dt; t.left > 1e-9 {
		return engine.Running, nil
	}
	return engine.ApplyEffects(t.a, t.act)
}

// Interrupt is called when the farmer drops the harvest (a new plan).
func (t *harvestTask) Interrupt() {}
