return {
  name = "Dancer",
  decide = "goap",
  state = { wood = 0, joy = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" },
  },
  actions = {
    { name = "chop", effects = "wood = wood + 1" },
    { name = "dance", effects = "joy = joy + 1" }, -- planted: no goal can use it
  },
}
