local mm = require("moonmind")
return mm.role {
  name = "HelperAxeless",
  state = { wood = 0, fire = false, axe = false },
  goals = {
    mm.goal("fed", "wood >= 0"),
    mm.goal("warm",
      "fire"), -- planted: no chain of actions reaches it from the initial state
  },
  actions = {
    mm.action("chop", { pre = "axe", effects = "wood = wood + 1" }),
    mm.action("light", { pre = "wood >= 3", effects = "fire = true", fulfills = { "warm" } }),
  },
}
