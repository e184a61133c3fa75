return {
  name = "Near",
  state = { n = 0 },
  goals = { { name = "g", condition = "n >= 1" } },
  actions = { { name = "a", effects = "n = n + 1", run = function(npc) npc.state.n = 1e300 end } },
}
