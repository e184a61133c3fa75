-- Errors raised inside the npc method wrapper luabind defines in Lua must
-- name the script's line that called the method. A victim keeps its host
-- method in a table the role's agents share (channel.lua); the attacker calls it, and calls its
-- own host methods with wrong arguments, each in pcall, and reports.
local chan = require("channel")

local calls = {
  { "kept method", function() local r = chan.box().report(chan.box().npc, "kept") return r end },
  { "kept method, tail call", function() return chan.box().report(chan.box().npc, "kept") end },
  { "function argument", function(npc) local r = npc:report(function() end) return r end },
  { "state as self", function(npc) local r = npc.report(npc.state, "x") return r end },
  { "host error", function(npc) local r = npc:fail() return r end },
  { "wait argument", function(npc) npc:wait("soon") end },
  { "wait_until argument", function(npc) npc:wait_until(3) end },
  { "dot call", function(npc) npc.wait(1) end },
}

return {
  name = "Wrapper",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        if npc.name == "victim" then
          chan.box().npc, chan.box().report = npc, npc.report
          npc:wait(1)
          npc.state.done = true
          return
        end
        npc:wait(0.2) -- the victim goes first
        for _, c in ipairs(calls) do
          local ok, v = pcall(c[2], npc)
          npc:report(c[1] .. ": " .. (ok and "ok " or "error ") .. tostring(v))
        end
        npc.state.done = true
        npc:fail() -- unprotected: the body fails with the line
      end,
    },
  },
}
