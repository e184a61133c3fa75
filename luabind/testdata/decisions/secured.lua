return {
  name = "Secured",
  state = { rich = false },
  goals = { { name = "money", condition = "rich" } },
  actions = {
    { name = "Rob", effects = "rich = true", restricted = "crime", run = function(npc) npc.state.rich = true end },
    { name = "Beg", effects = "rich = true", restricted = true, run = function(npc) npc.state.rich = true end },
    { name = "Work", effects = "rich = true", cost = 5, restricted = false, run = function(npc) npc.state.rich = true end },
  },
}
