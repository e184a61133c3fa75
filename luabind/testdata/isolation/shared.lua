-- One role file for a victim and its attackers: chan.box() is a module's
-- table, shared by every agent that carries the role (a module's locals
-- are not frozen), so the victim's coroutine and host call handle reach
-- the attackers through it. The sandbox refuses each attack.
local common = require("common")
local chan = require("channel")

local attacks = {
  attack_resume = function(npc)
    coroutine.resume(chan.box().co)
  end,
  attack_host = function(npc)
    coroutine.yield(chan.box().tag, chan.box().handle)
  end,
  attack_module = function(npc)
    common.greet = function() return "pwned" end
  end,
  attack_nested = function(npc)
    common.list[1] = 99
  end,
}

return {
  name = "Shared",
  state = { done = false, count = 0, greeting = "", first = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        if npc.name == "victim" then
          chan.box().co = coroutine.create(function()
            while true do
              npc.state.count = npc.state.count + 1
              coroutine.yield()
            end
          end)
          local leak = coroutine.create(function() return npc:move_to(3) end)
          local _, tag, handle = coroutine.resume(leak)
          chan.box().tag, chan.box().handle = tag, handle
          coroutine.resume(chan.box().co)
          npc:wait(1)
          npc.state.greeting = common.greet("victim")
          npc.state.first = common.list[1]
          npc.state.done = true
          return
        end
        npc:wait(0.2) -- the victim goes first
        attacks[npc.name](npc)
        npc.state.done = true
      end,
    },
  },
}
