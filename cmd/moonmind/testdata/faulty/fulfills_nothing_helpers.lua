local mm = require("moonmind")
return mm.role {
  name = "HelperPromiser",
  state = { wood = 0 },
  goals = {
    mm.goal("stocked", "wood >= 2"),
  },
  actions = {
    mm.action("rest", { cost = 1 }),
    mm.action("chop", {
      effects = "wood = wood + 1",
      fulfills = { "stoked" }, -- planted: fulfills "stoked", which is no goal
    }),
  },
}
