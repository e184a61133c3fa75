-- fetch uses a kind of object the role does not declare (a typo).
return {
  name = "Typo",
  state = { magazines = 0 },
  goals = { { name = "armed", condition = "magazines > 0" } },
  objects = { { name = "crate1", kind = "crate" } },
  actions = {
    { name = "fetch", uses = "crat", effects = "magazines = magazines + 1" },
  },
}
