return {
  name = "Dreamer",
  state = { gold = 0, wood = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" },
    { name = "rich", -- planted: has no candidate action (none lists it in fulfills
      condition = "gold > 10" },
  },
  actions = {
    { name = "chop", effects = "wood = wood + 1" },
  },
}
