// Package engine is moonmind's pure Go core: world state, the condition
// and effect languages, goals and actions, the backward-chaining (GOAP)
// and utility planners, the plan executor, agents, the world and its tick,
// and the flight recorder. It imports only the standard library; package
// luabind adds Lua scripts on top of it, and a Go game can use it alone.
//
// # The pieces
//
//   - State: a blackboard of named variables holding a Value (nil, bool,
//     number, string). Names are compiled to slots once (Schema), so the
//     planners copy small arrays, not maps.
//   - Conditions and effects: the TnsAI seed's expression languages,
//     compiled once (CompileCondition, CompileEffect); see Condition and
//     Effect for the grammar and the rules on unknown variables, mixed
//     types and simultaneous assignment.
//   - Roles: RoleSpec values (state, goals, actions, sensors, named
//     conditions, considerations) compiled by Compile into a Domain that
//     many agents share.
//   - Planners: Planner (backward regression to the relevant actions, then
//     a cost-optimal uniform-cost search) and UtilityPlanner (the seed's
//     weighted average of considerations, response curves, commitment).
//   - Runtime: Agent.Tick and World.Tick run sensors, decide, replan,
//     interrupt and resume action bodies (Body, Task); every decision is an
//     Event kept in the agent's Recorder.
//
// # Units and concurrency
//
// Times are in seconds (dt, waits, sensor periods, back-offs). A Domain is
// read-only and shared; an Agent, a Planner and a UtilityPlanner are not
// safe for concurrent use. World.Tick may tick agents on several
// goroutines (World.Workers) and still delivers events in a fixed order.
//
// # Determinism
//
// Declaration order is kept everywhere and breaks every tie, the world and
// each agent have seeded random sources, and planning wall time is only
// recorded on request (World.Timing): the same roles, seed and inputs give
// the same plans and the same trace.
package engine
