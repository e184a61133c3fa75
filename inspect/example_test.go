package inspect_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/inspect"
)

// The page and the API are one http.Handler; the game ticks the world
// through the inspector, which answers requests between ticks.
func Example() {
	role, _ := engine.Compile(engine.RoleSpec{
		Name:    "Woodcutter",
		State:   []engine.Var{{Name: "wood", Value: expr.NumberValue(0)}},
		Goals:   []engine.GoalSpec{engine.NewGoal("stocked", "wood >= 3", engine.High)},
		Actions: []engine.ActionSpec{engine.NewAction("chop").Effects("wood = wood + 1").Body(engine.BodyFunc(engine.ApplyEffects)).Spec()},
	})
	world := engine.NewWorld(1)
	world.Add(engine.NewAgent("jack", role))

	ins := inspect.New(inspect.Options{})
	_ = ins.Attach("zone1", world)
	srv := httptest.NewServer(ins.Handler()) // a game: http.Handle("/inspect/", ins.Handler())
	defer srv.Close()

	answer := make(chan string)
	go func() {
		resp, err := http.Get(srv.URL + "/api/agents")
		if err != nil {
			answer <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- string(b)
	}()
	world.Tick(0.1) // the first tick: jack plans and chops once
	for {           // the game loop, until the page has its answer
		select {
		case a := <-answer:
			fmt.Print(a)
			return
		default:
			ins.Idle(world) // in a game: ins.Tick(world, dt)
			time.Sleep(time.Millisecond)
		}
	}
	// Output:
	// [{"world":"zone1","name":"jack","role":"Woodcutter","goal":"stocked","action":"","decision":"goap","failures":0,"replans":0,"stuck":false,"ticks":1}]
}
