-- Issue 13.1: the cheapest way to money is secured; the agent plans around it.
return {
  name = "Thief",
  state = { rich = false, fed = false },
  goals = {
    { name = "money", condition = "rich", priority = "high" },
    { name = "dinner", condition = "fed" },
  },
  actions = {
    { name = "Rob", effects = "rich = true", cost = 1, restricted = "crime",
      run = function(npc) npc.state.rich = true end },
    { name = "Work", effects = "rich = true", cost = 5,
      run = function(npc) npc:wait(0.3); npc.state.rich = true end },
    { name = "Steal", effects = "fed = true", cost = 1, restricted = true,
      run = function(npc) npc.state.fed = true end },
  },
}
