return {
  name = "Promiser",
  state = { wood = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" },
  },
  actions = {
    { name = "chop", effects = "wood = wood + 1",
      fulfills = { "stoked" } }, -- planted: fulfills "stoked", which is no goal
  },
}
