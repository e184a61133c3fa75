-- Issue 13.7: a goap role with planning turned off picks while its goal is
-- unmet, then stays idle instead of picking Eat again every tick.
return {
  name = "Eater",
  decide = "goap",
  state = { fed = false },
  goals = { { name = "eat", condition = "fed" } },
  actions = {
    { name = "Eat", effects = "fed = true", run = function(npc) npc.state.fed = true end },
  },
}
