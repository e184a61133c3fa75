return {
  name = "Garbled",
  state = { wood = 0 },
  goals = {
    { name = "stocked",
      condition = "wood >= >= 2" }, -- planted: wood >= >= 2
  },
  actions = {
    { name = "chop", effects = "wood = wood + 1" },
  },
}
