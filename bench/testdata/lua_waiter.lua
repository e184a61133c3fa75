-- A body that waits forever: one resume per tick, each a wait step.
return {
  name = "LuaWaiter",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    { name = "idle", effects = "done = true", run = function(npc) npc:wait(1e9) end },
  },
}
