package engine

import (
	"strings"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// The String methods below let a programmer print what the engine hands
// back (fmt.Println(agent.Running()), fmt.Println(plan)) and read a name,
// not a struct of pointers. Each reads only fields that do not change
// after Compile or NewAgent, so it is as safe for concurrent use as
// reading the value itself; each prints "<nil>" for a nil pointer.

// String returns the action's name: "reload".
func (a *Action) String() string {
	if a == nil {
		return "<nil>"
	}
	return a.Name
}

// String returns the goal's name: "armed".
func (g *Goal) String() string {
	if g == nil {
		return "<nil>"
	}
	return g.Name
}

// String returns the plan's steps in order and its total cost, as
// `moonmind plan` prints them: "fetchMagazine, reload [cost 2]"; a plan
// with no steps (its goals already hold) is "(no steps) [cost 0]".
func (p *Plan) String() string {
	if p == nil {
		return "<nil>"
	}
	return stepsString(p.Steps, p.Cost)
}

// String returns the goal's name, then its part of the plan as Plan.String
// does: "armed: fetchMagazine, reload [cost 2]".
func (g GoalPlan) String() string {
	return g.Goal.String() + ": " + stepsString(g.Steps, g.Cost)
}

func stepsString(steps []*Action, cost float64) string {
	var b strings.Builder
	if len(steps) == 0 {
		b.WriteString("(no steps)")
	}
	for i, a := range steps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.String())
	}
	b.WriteString(" [cost ")
	b.WriteString(expr.ShortNumber(cost))
	b.WriteString("]")
	return b.String()
}

// String returns the agent's name and its role: "Soldier#2 (role
// Soldier)". It reads no state, so it may be called while another
// goroutine ticks the agent.
func (a *Agent) String() string {
	if a == nil {
		return "<nil>"
	}
	if a.Domain == nil {
		return a.Name
	}
	return a.Name + " (role " + a.Domain.Name + ")"
}

// String returns "role NAME": "role Soldier".
func (d *Domain) String() string {
	if d == nil {
		return "<nil>"
	}
	return "role " + d.Name
}

// String returns the sensor's name: "eyes".
func (s *Sensor) String() string {
	if s == nil {
		return "<nil>"
	}
	return s.Name
}

// String returns the named condition's name: "enemy_near".
func (c *NamedCondition) String() string {
	if c == nil {
		return "<nil>"
	}
	return c.Name
}
