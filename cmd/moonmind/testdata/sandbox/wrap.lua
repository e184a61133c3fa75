-- The victim keeps a coroutine.wrap function in a table the role's agents
-- share (channel.lua); the other agent of the role calls it.
local chan = require("channel")
return {
  name = "Wrap",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = { { name = "work", effects = "done = true", run = function(npc)
    if npc.name == "victim" then
      chan.box().w = coroutine.wrap(function() while true do coroutine.yield(1) end end)
      return npc:wait(1)
    end
    npc:wait(0.1)
    local ok, err
    ok, err = pcall(chan.box().w)
    npc:print("pcall: " .. tostring(ok) .. " " .. err)
    ok, err = pcall(function() return chan.box().w() end)
    npc:print("pcall of a tail call: " .. tostring(ok) .. " " .. err)
    chan.box().w()
  end } },
}
