return {
  name = "Typo",
  state = { energy = 50, wood = 0 },
  goals = { { name = "stocked", condition = "wood >= 3" } },
  actions = {
    { name = "chop", pre = "enrgy > 10", effects = "wood = wood + 1" },
  },
}
