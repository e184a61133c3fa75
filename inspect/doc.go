// Package inspect is a live inspector for running worlds: a browser page
// and a JSON API that show every agent of one or several engine.Worlds,
// one agent's mind in detail (its state and what changed, its goal and
// plan with costs, its utility scores with every consideration and curve,
// its reactive intentions, its flight recorder, why it did not choose an
// action), and, when control is enabled, pause, one tick, resume,
// breakpoints, setting state and hot reload.
//
// The inspector reads a world only between ticks, on the goroutine that
// ticks it: a request from the page waits in a bounded queue until the
// game calls Tick (or Ready and AfterTick, or Idle), which answers it. A slow or
// stalled browser never blocks a tick: a full queue refuses the request,
// and live updates to a page go through a small buffer that drops what the
// page has not taken (both are counted, see /api/worlds). With no browser
// attached, Tick adds to World.Tick a few uncontended locks and atomic
// loads, and no allocation.
//
// Attaching from a game:
//
//	ins := inspect.New(inspect.Options{})
//	ins.Attach("zone1", world)
//	http.Handle("/inspect/", ins.Handler())
//	go http.ListenAndServe("127.0.0.1:8790", nil)
//	for running { // the game loop
//		ins.Tick(world, 1.0/60) // world.Tick, unless the page paused it
//	}
//
// The JSON API lives under api/ beside the page: api/worlds, api/agents
// (filter, sort and page with query parameters; the total in the
// X-Total-Count header), api/worlds/{world}/agents/{name} (one agent's
// view), .../history (time travel), .../records?since=N (the flight
// recorder's records after a sequence number), .../whynot?action=NAME, and
// api/ws (a WebSocket that pushes one agent's view as the world ticks).
// docs/inspector.md describes each one.
//
// Safe to leave on: a request from another machine is refused unless
// Options.Token is set and the request carries it; control is off unless
// Options.Control is set; Listen refuses a non-loopback address without a
// token.
package inspect
