-- One role for a victim and its attackers. chan.box() is a module's table,
-- shared by every agent that carries this role (a module's locals are not
-- frozen), so the victim's coroutines and host call reach the attackers
-- through it; the sandbox refuses to let them use any of it.
local registry = require("registry")
local chan = require("channel")

local attacks = {
  attack_resume = function(npc) coroutine.resume(chan.box().co) end,
  attack_wrap = function(npc) chan.box().wrapped() end,
  attack_host = function(npc) coroutine.yield(chan.box().tag, chan.box().handle) end,
  attack_patch = function(npc) registry.greet = function() return "pwned" end end,
  attack_nested = function(npc) registry.list[1] = 99 end,
}

local function victim(npc)
  chan.box().co = coroutine.create(function()
    while true do
      npc.state.count = npc.state.count + 1
      coroutine.yield()
    end
  end)
  chan.box().wrapped = coroutine.wrap(function()
    while true do
      npc.state.count = npc.state.count + 100
      coroutine.yield()
    end
  end)
  registry.put("co", chan.box().co)
  -- A host call started in a coroutine the victim never waits on: its
  -- handle is what an attacker would re-yield.
  local leak = coroutine.create(function() return npc:move_to(30, 0) end)
  local _, tag, handle = coroutine.resume(leak)
  chan.box().tag, chan.box().handle = tag, handle
  for _ = 1, 4 do
    coroutine.resume(chan.box().co)
    chan.box().wrapped()
    npc:print("count " .. npc.state.count .. ", " .. registry.greet("victim") .. ", first " .. registry.list[1])
    npc:wait(0.2)
  end
  local x, y = npc:position()
  npc:print("at " .. x .. " " .. y)
  npc.state.done = true
end

return {
  name = "Shared",
  state = { done = false, count = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        if npc.name == "victim" then return victim(npc) end
        npc:wait(0.1) -- the victim goes first
        attacks[npc.name](npc)
        npc.state.done = true
      end,
    },
  },
}
