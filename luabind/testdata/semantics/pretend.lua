-- An action whose body forgets its promise, and an honest dearer way to
-- the same goal: once pretend has broken its promise twice in a row it is
-- backed off and the planner takes build.
return {
  name = "Pretender",
  state = { x = false },
  goals = { { name = "x", condition = "x" } },
  actions = {
    { name = "pretend", effects = "x = true", run = function(npc) end },
    { name = "build", effects = "x = true", cost = 5, run = function(npc) npc.state.x = true end },
  },
}
