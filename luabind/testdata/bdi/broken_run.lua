return {
  name = "Runner",
  state = { bell = false },
  plans = {
    { name = "bad guard", on = "goal_added", goal = "guarded",
      guard = function(g, npc) return g .. nil end,
      body = function() end },
    { name = "recover", on = "goal_failed", goal = "guarded",
      body = function(npc, g) npc:print("recovered", g) end },
    { name = "teller", on = "goal_added", goal = "tell",
      body = function(npc) npc:tell("Nobody", "bell", true) end },
    { name = "asker", on = "goal_added", goal = "ask",
      body = function(npc) npc:achieve("nothing serves this") end },
    { name = "spin", on = "goal_added", goal = "spin",
      body = function(npc) while true do end end },
  },
}
