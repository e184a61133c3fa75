return {
  name = "Reader",
  state = { wood = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" },
  },
  actions = {
    { name = "chop",
      pre = "has_axe", -- planted: has_axe
      effects = "wood = wood + 1" },
  },
}
