-- fetch uses crates the game adds: the role declares none.
return {
  name = "GameCrates",
  state = { magazines = 0 },
  goals = { { name = "armed", condition = "magazines > 0" } },
  actions = {
    { name = "fetch", uses = "crate", effects = "magazines = magazines + 1" },
  },
}
