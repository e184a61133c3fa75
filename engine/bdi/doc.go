// Package bdi is moonmind's reactive layer: a BDI plan library for a game
// loop (its sources and rules: docs/reactive-plans.md, docs/semantics.md). An agent's beliefs are its state variables; a
// plan reacts to an event (a goal added, failed or removed, a belief added
// or removed) when its trigger is relevant and its guard applicable, and
// its body runs as an intention, a coroutine that runs until it suspends.
//
// The package is built on engine's public API only: a Mind implements
// engine.Reactive, which the engine calls from Agent.Tick. Lua plans come
// from package luabind (a role's plans and initial_goals); Go programs
// build a Library from Plans, and Install it on a domain or Attach it to
// an agent.
//
// # The order of a tick
//
// Agent.Tick runs, for one agent: the beliefs told to it last tick
// (Agent.Tell) are set; sensors and named conditions run; the state is
// compared with the beliefs the Mind saw last and every change becomes a
// belief event; then Mind.Step:
//
//  1. on the agent's first tick, its initial goals are added;
//  2. queued events are dispatched, oldest first: each to the first
//     applicable plan in library order, whose new intention runs at once
//     until it suspends (a belief event or a goal removal with no
//     applicable plan is ignored; a goal event with none fails the goal,
//     unless the goal is a named goal of the domain, which is handed to
//     the GOAP planner); then to the intentions waiting for an event;
//  3. every older intention is resumed once with the tick's dt, in the
//     order they started (a waiting intention costs a check, no Lua);
//  4. event waits that timed out and GOAP goals that hold or failed end;
//  5. the events raised meanwhile are dispatched, and intentions whose
//     sub-goal or event wait ended are resumed (with dt 0), until none is
//     left or Config.MaxResumes is reached.
//
// After Step the GOAP or utility planner decides and resumes the one
// running action body, exactly as without plans; the belief changes that
// body makes become events at the end of the tick and are dispatched at
// the next Step. Intentions never take the action body's slot: at most
// one action body runs at a time, and an intention that needs actions
// achieves a goal of the domain, which queues behind the running step.
//
// Everything runs on the goroutine that ticks the agent, in an order
// fixed by the scripts, the seed and the inputs; told beliefs travel
// between ticks in agent order. So a world gives the same decisions and
// the same trace with any number of workers.
package bdi
