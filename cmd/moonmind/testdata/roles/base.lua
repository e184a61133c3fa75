return {
  name = "Base",
  state = { wood = 0 },
  goals = { { name = "stocked", condition = "wood >= 2" } },
  actions = { { name = "chop", effects = "wood = wood + 1", run = function(npc) npc:wait(0.5) end } },
}
