// Package engine is moonmind's pure Go core: world state, the condition
// and effect languages, goals and actions, the backward-chaining (GOAP)
// and utility planners, the plan executor, agents, the world and its tick,
// and the flight recorder. It imports only the standard library and its own
// packages: the expression language (engine/expr), the records (engine/record)
// and the response curves (engine/curve); package luabind adds Lua
// scripts on top of it, and a Go game can use it alone.
//
// The rules the engine follows (the condition and effect languages, the
// planners, the failure reasons, the tick), the documents they come from
// and every place moonmind departs from those documents are written out in
// docs/semantics.md.
//
// # The pieces
//
//   - State: a blackboard of named variables holding a Value (nil, bool,
//     number, string). Names are compiled to slots once (Schema), so the
//     planners copy small arrays, not maps.
//   - Conditions and effects: the expression languages of package
//     engine/expr, compiled once (CompileCondition, CompileEffect); see
//     expr.Condition and expr.Effect for the grammar and the rules on
//     unknown variables, mixed types and simultaneous assignment.
//   - Roles: RoleSpec values (state, goals, actions, sensors, named
//     conditions, considerations) compiled by Compile into a Domain that
//     many agents share.
//   - Planners: Planner (backward regression to the relevant actions, then
//     a cost-optimal A* search) and UtilityPlanner (a weighted average or
//     product of considerations, response curves, commitment).
//   - Runtime: Agent.Tick and World.Tick run sensors, decide, replan,
//     interrupt and resume action bodies (Body, Task); every decision is a
//     record.Event kept in the agent's flight recorder (package engine/record).
//   - Reactive plans: the Reactive interface, through which package
//     engine/bdi reacts to belief and goal events (Agent.Believe, Forget,
//     Tell, Achieve) within the tick; see docs/reactive-plans.md.
//
// # The condition and effect languages in brief
//
// Conditions: comparisons == != > >= < <=, then "!", then "&&", then "||"
// (loosest), with parentheses; "a || b && c" is "a || (b && c)" and
// "!x > 5" is "!(x > 5)". Operands are variables, numbers ("-2", "15.1"),
// quoted strings ('...' or "..." with \n \t \r \\ \" \'), true, false and
// nil. A bare variable holds only when it is the bool true. Numbers compare
// as float64 ("1 == 1.0" holds), strings by bytes; values of different
// kinds are unequal and never ordered, bools and nil are never ordered,
// and none of that is an error. A variable missing from the state makes
// the whole condition unsatisfied, under "!" and inside "||" too.
//
// Effects: "x = expr, y = expr"; "+" and "-" do float64 arithmetic on
// numbers and numeric variables ("x = x + 15.1" from 0 is exactly 15.1); a
// quoted string is text; true, false, nil/null and numbers are literals; a
// bare word names a variable when the domain has one, else it is stored as
// a string ("mode = ATTACK"). Every right-hand side reads the state before
// the effect, so "a = b, b = a" swaps. Parse errors are *ParseError (with
// the column and a caret); a non-numeric operand at run time is an
// *EffectError naming the variable and the effect. expr.ParseLiteral reads
// one value written the same way, for command lines and tools.
//
// # Units and concurrency
//
// Times are in seconds (dt, waits, sensor periods, back-offs). A Domain is
// read-only and shared; an Agent, a Planner and a UtilityPlanner are not
// safe for concurrent use. World.Tick may tick agents on several
// goroutines (World.Workers) and still delivers events in a fixed order.
// Every type's doc states its goroutine safety; docs/api-surface.md sums
// them up.
//
// # Options and errors
//
// Constructors take what they need (NewPlanner(d), NewUtilityPlanner(d),
// executor.New(agent)) and the options are the fields of the result or
// of an options struct (RestoreOptions), each with a documented zero
// value. Errors are typed: *CompileError, *PlanError, *ActionError,
// *ConsiderationError and *Error, and errors.Is matches the sentinels
// ErrRestricted, ErrNotExecutable, ErrTooManyResumes, ErrNoPlanner,
// ErrUnknownName (a name the caller gave has nothing behind it) and
// ErrSnapshot (every error of Restore and World.AddSnapshot).
//
// # Determinism
//
// Declaration order is kept everywhere and breaks every tie, the world and
// each agent have seeded random sources, and planning wall time is only
// recorded on request (World.Timing): the same roles, seed and inputs give
// the same plans and the same trace.
package engine
