-- A victim leaks its npc object, npc.state, npc.facts, methods and closures
-- over them into the role file's shared top-level table while its body
-- runs (its npc is the fast one then); an attacker of the same role uses
-- each from its own body, in pcall, and reports what happened.
local shared = {}

local attacks = {
  { "npc.state", function() return shared.npc.state end },
  { "npc.name", function() return shared.npc.name end },
  { "npc.facts", function() return shared.npc.facts end },
  { "npc.wait", function() return shared.npc.wait end },
  { "state read", function() return shared.state.count end },
  { "state write", function() shared.state.count = 99 end },
  { "facts kept", function() return shared.facts.anything end },
  { "chain name", function() return shared.chain.name end },
  { "chain state", function() return shared.chain.state end },
  { "chain of state", function() return shared.statechain.count end },
  { "closure", function() return shared.reader() end },
  { "wrap", function() return shared.wrapped() end },
  { "host call", function() return shared.npc:report("as the victim") end },
  { "kept method", function() local r = shared.report(shared.npc, "kept") return r end },
  { "wait_until", function() return shared.wait_until(shared.npc, function(n) return n.state.count > 0 end) end },
  { "getmetatable", function() return getmetatable(shared.npc) end },
  { "equal", function(npc) return shared.npc == npc end },
  { "rawget", function() return rawget(shared.npc, "state") end },
  { "next", function() return next(shared.npc) end },
  { "pairs", function() for k in pairs(shared.npc) do return k end end },
  { "tostring state", function() return type(tostring(shared.state)) end },
  { "kept Go method", function() return shared.print(shared.npc, "as the victim") end },
  { "kept Go method, own npc", function(npc) return shared.print(npc, "own") end },
}

return {
  name = "Leak",
  state = { done = false, count = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        if npc.name == "victim" then
          shared.npc, shared.state, shared.facts = npc, npc.state, npc.facts
          shared.report, shared.wait_until, shared.print = npc.report, npc.wait_until, npc.print
          shared.chain = setmetatable({}, { __index = npc })
          shared.statechain = setmetatable({}, { __index = npc.state })
          shared.reader = function() return npc.state.count end
          shared.wrapped = coroutine.wrap(function() return npc.state.count end)
          npc.state.count = 1
          npc:wait(1)
          -- the fast npc still answers its own agent
          npc.state.count = npc.state.count + #npc.name + shared.chain.state.count
          npc:report(string.format("count %d", npc.state.count))
          npc.state.done = true
          return
        end
        npc:wait(0.2) -- the victim goes first
        for _, a in ipairs(attacks) do
          local ok, v = pcall(a[2], npc)
          npc:report(a[1] .. ": " .. (ok and "ok " or "error ") .. tostring(v))
        end
        npc.state.done = true
      end,
    },
  },
}
