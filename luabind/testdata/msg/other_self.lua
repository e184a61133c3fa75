-- An npc object used as another agent's self: the victim keeps its npc in
-- a table the role's agents share (channel.lua), and the attacker calls each npc method with it
-- as self (npc.method(other, ...)), in pcall, and reports what happened;
-- npc:tell to the victim by name is allowed.
local chan = require("channel")

local calls = {
  { "wait", function() local r = chan.box().npc.wait(chan.box().npc, 1) return r end },
  { "wait zero", function() local r = chan.box().npc.wait(chan.box().npc, 0) return r end },
  { "wait, own method", function(npc) local r = npc.wait(chan.box().npc, 1) return r end },
  { "tell by name", function(npc) npc:tell("victim", "told", true) return "told" end },
  { "wait_until", function(npc) local r = npc.wait_until(chan.box().npc, function() return true end) return r end },
  { "believe", function(npc) local r = npc.believe(chan.box().npc, "flag") return r end },
  { "forget", function(npc) local r = npc.forget(chan.box().npc, "flag") return r end },
  { "tell", function(npc) local r = npc.tell(chan.box().npc, "victim", "flag") return r end },
  { "print", function(npc) local r = npc.print(chan.box().npc, "hi") return r end },
  { "also_achieve", function(npc) local r = npc.also_achieve(chan.box().npc, "g") return r end },
  { "achieve", function(npc) local r = npc.achieve(chan.box().npc, "g") return r end },
  { "wait_event", function(npc) local r = npc.wait_event(chan.box().npc, nil, 1) return r end },
  { "host", function(npc) local r = npc.report(chan.box().npc, "x") return r end },
  { "state", function() local r = chan.box().npc.state.flag return r end },
}

return {
  name = "OtherSelf",
  state = { done = false, flag = false, told = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        if npc.name == "victim" then
          chan.box().npc = npc
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
        npc.wait(chan.box().npc, 1) -- unprotected: the body fails at this line
      end,
    },
  },
}
