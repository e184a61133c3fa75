-- moonmind: helpers that build a role table (require("moonmind")).
--
-- Every helper returns plain data: a role written with them is the same
-- table a designer could write by hand, and a plain table keeps working.
-- The LuaLS annotations for this module are in scripts/types/moonmind.lua.

local type, error, pairs, select = type, error, pairs, select

local mm = {}

-- The goal priorities, for priority = mm.HIGH and the like.
mm.LOW, mm.NORMAL, mm.HIGH, mm.CRITICAL = "low", "normal", "high", "critical"

local function copy(t, into)
  into = into or {}
  if t ~= nil then
    for k, v in pairs(t) do
      into[k] = v
    end
  end
  return into
end

local function want(v, kind, what, level)
  if type(v) ~= kind then
    error(what .. " must be a " .. kind .. ", not " .. type(v), level + 1)
  end
end

-- mm.role{ ... }: a role table (returned unchanged).
function mm.role(spec)
  want(spec, "table", "mm.role's argument", 2)
  return spec
end

-- mm.goal(name, condition [, fields]): a goal; fields may hold priority,
-- description, persistent and deadline.
function mm.goal(name, condition, fields)
  want(name, "string", "a goal's name", 2)
  want(condition, "string", "goal " .. name .. "'s condition", 2)
  local g = copy(fields)
  g.name, g.condition = name, condition
  return g
end

-- mm.action(name, fields): an action; fields hold pre, effects, fulfills,
-- cost, utility, run and on_interrupt.
function mm.action(name, fields)
  want(name, "string", "an action's name", 2)
  local a = copy(fields)
  a.name = name
  return a
end

-- mm.sensor(name, every, run): a sensor run every `every` seconds;
-- run(npc, dt) writes npc.state.
function mm.sensor(name, every, run)
  want(name, "string", "a sensor's name", 2)
  want(every, "number", "sensor " .. name .. "'s period", 2)
  want(run, "function", "sensor " .. name .. "'s run", 2)
  return { name = name, every = every, run = run }
end

-- mm.condition(name, test): a named condition; test(npc) returns a
-- boolean and must not change anything.
function mm.condition(name, test)
  want(name, "string", "a condition's name", 2)
  want(test, "function", "condition " .. name .. "'s test", 2)
  return { name = name, test = test }
end

-- mm.plans(lib_a, lib_b, { ... }): one plan library, the lists
-- concatenated in argument order, so earlier plans take priority (put the
-- specific ones first: a catch-all first would shadow the rest). Each
-- argument is a list of plans, or a single plan (a table with `on`).
function mm.plans(...)
  local out = {}
  for i = 1, select("#", ...) do
    local lib = select(i, ...)
    if type(lib) ~= "userdata" then -- a module's plan library is a read-only view
      want(lib, "table", "mm.plans argument #" .. i, 2)
    end
    if lib.on ~= nil or lib.body ~= nil then
      out[#out + 1] = lib
    else
      for j = 1, #lib do
        out[#out + 1] = lib[j]
      end
    end
  end
  return out
end

-- mm.plan(on, fields): a plan; fields hold name, goal, belief, trigger,
-- guard and body.
function mm.plan(on, fields)
  want(on, "string", "a plan's on", 2)
  local p = copy(fields)
  p.on = on
  return p
end

return mm
