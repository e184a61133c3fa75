// Package soak runs shards of walking soldiers as separate processes on an
// embedded NATS server, kills one in the middle and checks that every
// soldier exists exactly once at the end (cmd/moonmind-shard).
package soak

import (
	"fmt"
	"math"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// Soldier compiles the soak's soldier: it walks to a post anywhere along
// the line [0, span), and once there gets new orders (a new post) from a
// sensor every second. Its bodies are Go: 20,000 soldiers with Lua bodies
// need more than two cores at 60 ticks a second.
func Soldier(span, speed float64) (*engine.Domain, error) {
	return engine.Compile(engine.RoleSpec{
		Name: "Soldier",
		State: []engine.Var{
			{Name: "x", Value: expr.NumberValue(0)},
			{Name: "post", Value: expr.NumberValue(0)},
			{Name: "arrived", Value: expr.BoolValue(true)},
			{Name: "patrols", Value: expr.NumberValue(0)},
		},
		Goals: []engine.GoalSpec{engine.NewGoal("at_post", "arrived == true", engine.High)},
		Actions: []engine.ActionSpec{
			engine.NewAction("walk").Effects("arrived = true, patrols = patrols + 1").Fulfills("at_post").
				Body(walkBody{speed: speed}).Spec(),
		},
		Sensors: []engine.SensorSpec{{Name: "orders", Every: 1, Run: func(a *engine.Agent, dt float64) error {
			if a.Get("arrived").Truthy() {
				a.Set("post", expr.NumberValue(math.Floor(a.Rand.Float64()*span)))
				a.Set("arrived", expr.BoolValue(false))
			}
			return nil
		}}},
	})
}

// walkBody moves the soldier toward its post at speed units a second.
type walkBody struct{ speed float64 }

func (b walkBody) Start(a *engine.Agent, act *engine.Action) (engine.Task, error) {
	return &walkTask{a: a, act: act, speed: b.speed}, nil
}

type walkTask struct {
	a     *engine.Agent
	act   *engine.Action
	speed float64
}

func (t *walkTask) Resume(dt float64) (engine.Status, error) {
	x, _ := t.a.Get("x").AsNumber()
	post, _ := t.a.Get("post").AsNumber()
	step := t.speed * dt
	if math.Abs(post-x) <= step {
		t.a.Set("x", expr.NumberValue(post))
		return engine.ApplyEffects(t.a, t.act)
	}
	t.a.Set("x", expr.NumberValue(x+math.Copysign(step, post-x)))
	return engine.Running, nil
}

func (t *walkTask) Interrupt() {}

// zoneOf is the zone a soldier at x stands in: zones are width wide, in
// order along the line.
func zoneOf(zones []string, width, x float64) string {
	i := int(x / width)
	i = max(0, min(i, len(zones)-1))
	return zones[i]
}

// zoneNames returns n zone names.
func zoneNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("z%d", i)
	}
	return out
}
