---@meta moonmind
-- LuaLS type definitions for moonmind's Lua API: the role table a role file
-- returns, the npc object bodies and callbacks receive, and the helpers of
-- require("moonmind"). This file is for editors only (scripts/.luarc.json
-- puts it on the language server's library path); the engine never runs it.
--
-- The sandbox a script runs in: the base library without dofile, loadfile,
-- load, loadstring, getfenv, setfenv, collectgarbage, module and newproxy;
-- table, string (without dump), math and coroutine, all read-only; no os,
-- io, debug or package. require reads only modules of the scripts folder
-- ("squad.common" is squad/common.lua). Globals cannot be created: declare
-- everything local. pcall and xpcall may wrap code that waits. Every resume
-- of a body and every callback runs under an instruction budget; strings
-- are limited to 16 MiB.

---A state value: numbers must stay within ±2^53 so they are exact.
---@alias moonmind.Value boolean|number|string|nil

---A goal's priority: a name (any case) or a whole number from 1 to 1000000
---(low is 10, normal 20, high 30, critical 40).
---@alias moonmind.Priority "low"|"normal"|"high"|"critical"|"LOW"|"NORMAL"|"HIGH"|"CRITICAL"|integer

---How an agent decides: GOAP plans for goals, utility picks one action at a
---time, hybrid plans first and picks when no goal has a plan.
---@alias moonmind.Decide "goap"|"utility"|"hybrid"

---The agent an action body, sensor or condition runs for. An npc object
---belongs to its agent: kept elsewhere, it cannot be used by another one.
---@class moonmind.NPC
---@field name string The agent's name (read-only).
---@field state table<string, moonmind.Value> The agent's state variables: read and write them by name. Writing is refused in conditions and considerations.
---@field facts table<string, any> The agent's blackboard of typed values, by type name (every action input and output). Storing a value sets the type's state variable true; nil sets it false.
---@field holds string? The name of the smart object the running step holds (its action's uses), or nil.
---@field squad table<string, moonmind.Value> The squad's blackboard, the variables the role's squad table declares (npc.squad.enemy_x is the state variable "squad.enemy_x"). A write is the agent's at once and every squad mate's from the next tick.
local NPC = {}

---Suspends the body for `seconds` of game time (in `run` and in plan bodies).
---@param seconds number
function NPC:wait(seconds) end

---Suspends the action body until `fn(npc)` returns true; `fn` runs once per tick.
---@param fn fun(npc: moonmind.NPC): boolean
function NPC:wait_until(fn) end

---Sets belief (a state variable) `name` to `value` (default true); a new value is a
---belief_added event, nil a belief_removed one. Refused in conditions, considerations,
---triggers and guards. An unknown variable is an error.
---@param name string
---@param value? moonmind.Value
function NPC:believe(name, value) end

---Removes belief `name`: the variable becomes missing (a belief_removed event when it had a value).
---@param name string
function NPC:forget(name) end

---Adds `goal` as a sub-goal and suspends the body until it completes (in a plan body or
---an action body). Its failure is raised here as an error naming this line.
---@param goal moonmind.GoalValue
function NPC:achieve(goal) end

---Adds `goal` as a separate top-level goal (its own intention) and does not wait.
---@param goal moonmind.GoalValue
function NPC:also_achieve(goal) end

---Like achieve, and returns the value returned by the plan body that completed the goal.
---@param goal moonmind.GoalValue
---@return any
function NPC:achieve_with_result(goal) end

---Suspends the body until an event matches `filter` (a table matched field by field, such as
---{ kind = "belief_added", name = "bell" }, or a function of the event; nil: any event).
---Returns the event, or nil, "timeout" after `timeout` seconds of game time (nil: no timeout).
---@param filter? moonmind.EventFilter|fun(event: moonmind.Event): boolean
---@param timeout? number Seconds.
---@return moonmind.Event|nil event
---@return "timeout"|nil reason
function NPC:wait_event(filter, timeout) end

---Sets belief `name` to `value` (default true) on the agent called `agent` at the start of its
---next tick, as a belief event whose `from` is this agent. An unknown agent or variable is an error.
---@param agent string
---@param name string
---@param value? moonmind.Value
function NPC:tell(agent, name, value) end

---What the agent's perception memory holds of one thing now.
---@class moonmind.Remembered
---@field source string What was perceived (an enemy's name, "grenade").
---@field sense "sight"|"sound"|"damage"|"told" How it was last perceived.
---@field x number The last known position.
---@field y number
---@field at number The agent's time, in seconds, when it was last perceived.
---@field age number Seconds since then.
---@field confidence number How sure the agent is of it now, from 0 to 1: its strength when last perceived, halved every half-life (5 s by default) since.
---@field lost boolean True once it is out of perception: no news of it for the memory's lose_after (1 s by default), or npc:lose. Still remembered until forgotten.

---What the agent remembers of `source` now, or nil (never perceived, or forgotten: its
---confidence fell below the memory's threshold, 0.05 by default).
---@param source string
---@return moonmind.Remembered|nil
function NPC:recall(source) end

---Everything the agent remembers now, in the order first perceived.
---@return moonmind.Remembered[]
function NPC:memories() end

---Remembers a stimulus now: `source` perceived by `sense` at `x`, `y`, with `strength` (above 0,
---at most 1; default 1). News of a remembered thing moves its last known position and time.
---Refused in conditions, considerations, triggers and guards.
---@param source string
---@param sense "sight"|"sound"|"damage"|"told"
---@param x number
---@param y number
---@param strength? number
function NPC:perceive(source, sense, x, y, strength) end

---Marks `source` lost now (the game knows the agent's sight of it broke): a lost event for the
---plans. It stays remembered, at its last known position, until forgotten; news finds it again.
---Returns true when it was remembered and not lost. Refused in conditions, considerations,
---triggers and guards.
---@param source string
---@return boolean
function NPC:lose(source) end

---Writes one line: the agent's name, then the values as tostring shows them, joined by
---single spaces (to the `moonmind run` output and as a print record in the trace).
---@param ... any
function NPC:print(...) end

---Demo host method: walks to (x, y) and returns on arrival.
---@param x number
---@param y number
function NPC:move_to(x, y) end

---Demo host method: the position of the nearest thing of a kind.
---@param kind string
---@return number x
---@return number y
function NPC:nearest(kind) end

---Demo host method: the agent's position.
---@return number x
---@return number y
function NPC:position() end

---Demo host method: fires one round at the current target.
function NPC:shoot() end

---One step of a plan a language model proposed.
---@class moonmind.LLMStep
---@field action string The action's name ("unknown" when the model gave none).
---@field description string
---@field arguments table<string, any> The step's arguments, from the model's JSON (an empty table when none).
---@field reasoning string

---A plan a language model proposed for a goal in plain text.
---@class moonmind.LLMPlan
---@field goal string The goal text asked for.
---@field reasoning string
---@field steps moonmind.LLMStep[] In order; empty when the reply held no plan.

---What npc:llm_plan returns with the execute option.
---@class moonmind.LLMRun
---@field success boolean Every step run succeeded.
---@field completed boolean The last plan ran to its end.
---@field replans integer Revised plans asked for.
---@field plan moonmind.LLMPlan The last plan.
---@field results {action: string, success: boolean, output?: any, error?: string, attempt: integer}[]
---@field error? string Why a revised plan could not be had.

---@class moonmind.LLMPlanOptions
---@field capabilities? (string|{name: string, description?: string})[] The actions the model may use: names of the role's actions, or name and description. Default: every action of the role.
---@field timeout? number Seconds of game time to wait for the answer (default 10).
---@field goal? string A goal of the role: the answer is grounded against the role and the agent's state when it arrives.
---@field fallback? "reject"|"trim"|"goap" What grounding does with a plan that does not hold (default "reject").
---@field model? string A model role the game maps to a client ("cheapest", "best", "default", or a name the game gives).
---@field temperature? number Sampling temperature for this call, 0..2.
---@field context? string Text added to the planner's context for this call.
---@field max_goal_chars? integer Refuse a goal longer than this (a guard rail of this call).
---@field deny? string[] Refuse a goal holding one of these words (a guard rail of this call).
---@field execute? fun(step: moonmind.LLMStep, npc: moonmind.NPC): boolean, string? Runs each step (it may wait); a false result asks the model for a revised plan. npc:llm_plan then returns a moonmind.LLMRun.
---@field max_replans? integer With execute: how many revised plans the model may give (default 3).
---@field review? fun(plan: moonmind.LLMPlan, npc: moonmind.NPC): (boolean|"approve"|{reject?: string, remove?: integer[], order?: integer[]}|nil), string? The approval gate: approve, reject (false and a reason), remove steps, reorder them (1-based indexes).

---Asks a language model for a plan toward `goal_text` (only in `run`, and
---only when the game enabled it: Runtime.EnableLLM). The body waits, the
---tick does not: the request runs off the game loop. Returns the plan, or
---nil and "timeout", "refused: ...", "rejected: ...", "error: ..." or
---"unavailable" (no model configured).
---@param goal_text string
---@param opts? moonmind.LLMPlanOptions
---@return moonmind.LLMPlan|nil plan
---@return string|nil reason
function NPC:llm_plan(goal_text, opts) end

---@class moonmind.Goal
---@field name string
---@field condition string A condition: comparisons, && (or and), || (or or), ! (or not), ~= (or !=), state variables, named conditions, and the perception memory as memory.<source>.<field> (known, lost, age, confidence, x, y, sense; e.g. "memory.enemy.age < 3").
---@field priority? moonmind.Priority Default "normal".
---@field description? string
---@field persistent? boolean
---@field deadline? number Seconds.

---@class moonmind.Utility
---@field cost? number
---@field value? number
---@field weight? number
---@field tags? string[]

---What a consideration function receives about the action it scores.
---@class moonmind.ActionInfo
---@field name string
---@field cost number
---@field value number
---@field weight number
---@field tags string[]

---A consideration: a built-in name ("cost", "value(0.5)", 'hasTag("combat")'),
---a table, or a function returning a number (true is 1), used as it is in
---"average" mode (as TnsAI uses its lambdas) and clamped to [0, 1] in "multiply" mode.
---@alias moonmind.Consideration string|moonmind.ConsiderationSpec|fun(action: moonmind.ActionInfo, state: table<string, moonmind.Value>): number|boolean

---@class moonmind.ConsiderationSpec
---@field kind? "cost"|"value"|"utility"|"preconditionSatisfied"|"hasTag"|"combine"
---@field name? string
---@field weight? number
---@field tag? string For kind = "hasTag".
---@field of? moonmind.Consideration[] For kind = "combine".
---@field input? string A state variable, scored through a response curve.
---@field min? number
---@field max? number
---@field curve? "linear"|"polynomial"|"logistic"|"logit"|"step"
---@field slope? number
---@field exponent? number
---@field offset? number
---@field shift? number
---@field invert? boolean
---@field fn? fun(action: moonmind.ActionInfo, state: table<string, moonmind.Value>): number|boolean

---An action. `run` is a coroutine resumed once per tick: return (or return
---true) to succeed, `error(...)` or `return false, reason` to fail.
---@class moonmind.Action
---@field name string
---@field description? string
---@field pre? string The precondition.
---@field effects? string What the action makes true: "ammo = 30, magazines = magazines - 1".
---@field post? string|string[] A string: another name for effects. A list: the named conditions the action promises (true after it for the planner; checked after the body, a broken promise is recorded).
---@field inputs? string[] Type names the action needs on the blackboard (npc.facts); each is a boolean state variable.
---@field output? string The type name the action produces: its body stores the value in npc.facts.
---@field can_rerun? boolean Whether the action may run again while one goal is pursued; default true (games repeat actions).
---@field achieves_goal? string The goal the action completes; made from its output (condition = the output type) when the role declares no such goal.
---@field uses? string The kind of smart object the action needs a slot of ("crate"): it is planned only while the game's world has such an object with a free slot, and its step holds the slot while it runs.
---@field llm_model? string The model role npc:llm_plan calls in this body ask when the call names none ("cheapest", "best", ...).
---@field fulfills? string|string[] Goal names.
---@field cost? number Greater than 0; default 1.
---@field utility? moonmind.Utility
---@field considerations? moonmind.Consideration[]
---@field restricted? boolean|string true: no agent may run it (agents plan around it); a string: the authority an agent needs (Agent.Authorities, `moonmind plan/run --authority NAME`).
---@field run? fun(npc: moonmind.NPC): boolean|nil, string|nil
---@field on_interrupt? fun(npc: moonmind.NPC) Runs when the engine interrupts the body.

---A sensor: `run(npc, dt)` writes state every `every` seconds (0: each tick).
---@class moonmind.Sensor
---@field name string
---@field description? string
---@field every? number
---@field run fun(npc: moonmind.NPC, dt: number)

---A named condition, usable by name in pre and goal conditions; `test` must
---not change anything.
---@class moonmind.Condition
---@field name string
---@field description? string
---@field test fun(npc: moonmind.NPC): boolean

---A goal of reactive plans: a name, or a list of strings, numbers and booleans such as
---{ "start", 1, 5 }, compared element by element.
---@alias moonmind.GoalValue string|(string|number|boolean)[]

---The event kinds plans react to.
---@alias moonmind.EventKind "goal_added"|"goal_failed"|"goal_removed"|"belief_added"|"belief_removed"|"perceived"|"lost"|"forgotten"

---An event: goal events have `goal` (and `error` on goal_failed, `result` on goal_removed);
---belief events have `name`, `value`, `old` (and `from`, the agent that told it); perception
---events (perceived, lost, forgotten) have the thing's fields as npc:recall gives them, as they
---were when it happened.
---@class moonmind.Event
---@field kind moonmind.EventKind
---@field goal? moonmind.GoalValue
---@field error? string
---@field result? any
---@field name? string
---@field value? moonmind.Value
---@field old? moonmind.Value
---@field from? string
---@field source? string
---@field sense? "sight"|"sound"|"damage"|"told"
---@field x? number
---@field y? number
---@field at? number
---@field age? number
---@field confidence? number
---@field lost? boolean

---A wait_event filter: every field given must equal the event's (`error` matches a part of the message).
---@class moonmind.EventFilter
---@field kind? moonmind.EventKind
---@field goal? moonmind.GoalValue
---@field error? string
---@field name? string
---@field value? moonmind.Value
---@field old? moonmind.Value
---@field from? string
---@field source? string Perception events of this source.

---What a belief trigger receives: the variable's name, its new value and its old one.
---@class moonmind.Belief
---@field name string
---@field value moonmind.Value
---@field old moonmind.Value
---@field from? string The agent that told it.

---A reactive plan (as in JaKtA): on an event of kind `on`, when the shorthand filter
---(`goal`, `belief` or `source`) matches and `trigger` returns a context, and `guard` returns one
---too, the body runs as an intention, a coroutine that runs until it suspends. The first
---applicable plan of the list wins. Without a trigger the context is the goal, the
---moonmind.Belief, or for a perception event the moonmind.Remembered thing.
---@class moonmind.Plan
---@field name? string For traces.
---@field on moonmind.EventKind
---@field goal? string Goal events: the goal equals this name, or is a list whose [1] equals it.
---@field belief? string Belief events: the state variable's name.
---@field source? string Perception events (perceived, lost, forgotten): the thing's source.
---@field trigger? fun(subject: moonmind.GoalValue|moonmind.Belief|moonmind.Remembered, npc: moonmind.NPC, event: moonmind.Event): any Nil or false: not relevant. event.error says why a goal failed.
---@field guard? fun(ctx: any, npc: moonmind.NPC): any Nil or false: not applicable; else the (refined) context.
---@field body fun(npc: moonmind.NPC, ctx: any, event: moonmind.Event): any Its return value is the goal's result. event.error says why a goal failed.

---The table a role file returns.
---@class moonmind.Role
---@field name string
---@field description? string
---@field extends? string A module of the scripts folder or a role loaded before; the child's entries win.
---@field state? table<string, moonmind.Value>
---@field goals? moonmind.Goal[]
---@field actions? moonmind.Action[]
---@field conditions? table<string, fun(npc: moonmind.NPC): boolean>|moonmind.Condition[]
---@field sensors? moonmind.Sensor[]
---@field decide? moonmind.Decide
---@field considerations? moonmind.Consideration[]
---@field utility_mode? "average"|"multiply"
---@field plans? moonmind.Plan[] The plan library, in priority order (see mm.plans).
---@field initial_goals? moonmind.GoalValue[] Goals added (goal_added events) at the agent's first tick.
---@field quiet_beliefs? boolean Leave out of the trace the belief events no plan could want and no wait waits for.
---@field squad? table<string, moonmind.Value> The squad's shared variables with their starting values: state variables named "squad.NAME" that every member of the agent's squad shares (the game puts agents in squads).
---@field lod? moonmind.LOD The role's think rates under the game's level of detail.
---@field memory? moonmind.MemorySettings How its agents' perception memory fades.
---@field objects? moonmind.Object[] Smart objects of the world its agents live in, which actions use (uses = "kind"); the game adds them to its world, once however many agents have the role.
---@field llm_model? string The model role npc:llm_plan asks in this role's bodies when neither the call nor the running action names one ("cheapest", "best", ...); inherited through extends.
---@field check_ignore? table<string, string>|string[] Findings of moonmind check silenced by name ("sensor-write:hunger"), each with its reason.

---A role's level of detail: how often its agents think at each level of importance the game
---gives them (0 the most important). An agent that thinks less often ticks once per think, with
---the game time since its last think as its dt: its body and sensors see the real elapsed time.
---@class moonmind.LOD
---@field rates number[] Thinks per second of levels 0, 1, 2, ... (e.g. { 60, 10, 2 }); a level past the end uses the last. Each a positive number; a rate at or above the game's tick rate thinks every tick.

---A smart object a role declares: something in the world, of a kind that actions use, with slots
---that agents claim while a step that uses it runs.
---@class moonmind.Object
---@field name string Unique among the world's objects.
---@field kind string What actions name in uses ("crate").
---@field slots? integer How many agents may hold it at once (default 1; 0 offers nothing).
---@field data? table<string, moonmind.Value> The game's values for it (a position, the magazines left); the game may change them.
---@field offers? fun(data: table<string, moonmind.Value>): boolean|integer|nil What it offers for its data now: true its slots, false or nil nothing (it has run out), a number that many slots (at most slots). Asked when the game adds it and after the game changes its data.

---How a role's agents' perception memory fades (see npc:recall). Absent fields keep the defaults.
---@class moonmind.MemorySettings
---@field half_life? number Seconds for a remembered thing's confidence to halve (default 5; math.huge: never fades).
---@field forget? number The confidence below which a thing is forgotten (default 0.05; negative: never).
---@field capacity? integer The most things remembered (default 64); a new thing replaces the least confident.
---@field lose_after? number Seconds without news after which a thing is lost (default 1; negative: only npc:lose).

---The helpers of require("moonmind"); each returns plain data.
---@class moonmind
---@field LOW "low"
---@field NORMAL "normal"
---@field HIGH "high"
---@field CRITICAL "critical"
local mm = {}

---Returns the role table unchanged (it gives the editor its type).
---@param spec moonmind.Role
---@return moonmind.Role
function mm.role(spec) end

---@param name string
---@param condition string
---@param fields? { priority?: moonmind.Priority, description?: string, persistent?: boolean, deadline?: number }
---@return moonmind.Goal
function mm.goal(name, condition, fields) end

---@param name string
---@param fields moonmind.Action|table
---@return moonmind.Action
function mm.action(name, fields) end

---@param name string
---@param every number Seconds between runs.
---@param run fun(npc: moonmind.NPC, dt: number)
---@return moonmind.Sensor
function mm.sensor(name, every, run) end

---@param name string
---@param test fun(npc: moonmind.NPC): boolean
---@return moonmind.Condition
function mm.condition(name, test) end

---One plan library: the lists concatenated in argument order, so earlier plans take priority
---(specific first: a catch-all first shadows the rest). Each argument is a list of plans (a
---module of plans: require("lib")) or a single plan.
---@param ... moonmind.Plan[]|moonmind.Plan
---@return moonmind.Plan[]
function mm.plans(...) end

---@param on moonmind.EventKind
---@param fields moonmind.Plan|table
---@return moonmind.Plan
function mm.plan(on, fields) end

return mm
