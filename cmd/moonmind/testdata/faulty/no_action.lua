return {
  name = "Dreamer",
  state = { gold = 0, wood = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" },
    { name = "rich",
      condition = "gold > 10" }, -- planted: no action fulfills it or assigns a variable its condition
  },
  actions = {
    { name = "chop", effects = "wood = wood + 1" },
  },
}
