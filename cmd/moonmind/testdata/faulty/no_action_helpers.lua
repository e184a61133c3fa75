local mm = require("moonmind")
return mm.role {
  name = "HelperDreamer",
  state = { gold = 0, wood = 0 },
  goals = {
    mm.goal("stocked", "wood >= 2"),
    mm.goal("rich", "gold > 10"), -- planted: has no candidate action (none lists it in fulfills
  },
  actions = {
    mm.action("chop", { effects = "wood = wood + 1" }),
  },
}
