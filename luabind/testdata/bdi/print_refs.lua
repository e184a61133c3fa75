return {
  name = "PrintRefs",
  state = { x = 0 },
  initial_goals = { "go" },
  plans = {
    { name = "go", on = "goal_added", goal = "go",
      body = function(npc) npc:print({}, npc, coroutine.create(function() end), print) end },
  },
}
