-- A victim leaks its npc object, npc.state, npc.facts, methods and closures
-- over them into a table every agent of the role shares (channel.lua) while its body
-- runs (its npc is the fast one then); an attacker of the same role uses
-- each from its own body, in pcall, and reports what happened.
local chan = require("channel")

local attacks = {
  { "npc.state", function() return chan.box().npc.state end },
  { "npc.name", function() return chan.box().npc.name end },
  { "npc.facts", function() return chan.box().npc.facts end },
  { "npc.wait", function() return chan.box().npc.wait end },
  { "state read", function() return chan.box().state.count end },
  { "state write", function() chan.box().state.count = 99 end },
  { "facts kept", function() return chan.box().facts.anything end },
  { "chain name", function() return chan.box().chain.name end },
  { "chain state", function() return chan.box().chain.state end },
  { "chain of state", function() return chan.box().statechain.count end },
  { "closure", function() return chan.box().reader() end },
  { "wrap", function() return chan.box().wrapped() end },
  { "host call", function() return chan.box().npc:report("as the victim") end },
  { "kept method", function() local r = chan.box().report(chan.box().npc, "kept") return r end },
  { "wait_until", function() return chan.box().wait_until(chan.box().npc, function(n) return n.state.count > 0 end) end },
  { "getmetatable", function() return getmetatable(chan.box().npc) end },
  { "equal", function(npc) return chan.box().npc == npc end },
  { "rawget", function() return rawget(chan.box().npc, "state") end },
  { "next", function() return next(chan.box().npc) end },
  { "pairs", function() for k in pairs(chan.box().npc) do return k end end },
  { "tostring state", function() return type(tostring(chan.box().state)) end },
  { "kept Go method", function() return chan.box().print(chan.box().npc, "as the victim") end },
  { "kept Go method, own npc", function(npc) return chan.box().print(npc, "own") end },
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
          chan.box().npc, chan.box().state, chan.box().facts = npc, npc.state, npc.facts
          chan.box().report, chan.box().wait_until, chan.box().print = npc.report, npc.wait_until, npc.print
          chan.box().chain = setmetatable({}, { __index = npc })
          chan.box().statechain = setmetatable({}, { __index = npc.state })
          chan.box().reader = function() return npc.state.count end
          chan.box().wrapped = coroutine.wrap(function() return npc.state.count end)
          npc.state.count = 1
          npc:wait(1)
          -- the fast npc still answers its own agent
          npc.state.count = npc.state.count + #npc.name + chan.box().chain.state.count
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
