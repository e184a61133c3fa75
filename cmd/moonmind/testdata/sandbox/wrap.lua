-- The victim keeps a coroutine.wrap function in a top-level local of
-- its role file; the other agent of the role calls it.
local shared = {}
return {
  name = "Wrap",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = { { name = "work", effects = "done = true", run = function(npc)
    if npc.name == "victim" then
      shared.w = coroutine.wrap(function() while true do coroutine.yield(1) end end)
      return npc:wait(1)
    end
    npc:wait(0.1)
    local ok, err
    ok, err = pcall(shared.w)
    npc:print("pcall: " .. tostring(ok) .. " " .. err)
    ok, err = pcall(function() return shared.w() end)
    npc:print("pcall of a tail call: " .. tostring(ok) .. " " .. err)
    shared.w()
  end } },
}
