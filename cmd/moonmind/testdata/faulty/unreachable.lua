return {
  name = "Axeless",
  state = { wood = 0, fire = false, axe = false },
  goals = {
    { name = "warm",
      condition = "fire" }, -- planted: no chain of actions reaches it from the initial state
  },
  actions = {
    { name = "chop", pre = "axe", effects = "wood = wood + 1" },
    { name = "light", pre = "wood >= 3", effects = "fire = true", fulfills = { "warm" } },
  },
}
