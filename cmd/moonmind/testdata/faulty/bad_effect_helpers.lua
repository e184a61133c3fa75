local mm = require("moonmind")
return mm.role {
  name = "HelperGarbled",
  state = { wood = 0 },
  goals = {
    mm.goal("stocked", "wood >= 2"),
  },
  actions = {
    mm.action("rest", { effects = "wood = wood" }),
    mm.action("chop", {
      pre = "wood < 5",
      effects = "wood = wood +", -- planted: wood = wood +
    }),
  },
}
