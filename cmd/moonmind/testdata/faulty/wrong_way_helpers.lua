local mm = require("moonmind")
return mm.role {
  name = "HelperSpender",
  state = { gold = 0, wood = 0 },
  goals = {
    mm.goal("stocked", "wood >= 1"),
    mm.goal("rich", "gold >= 10"), -- planted: gold >= 10 needs gold to move, and no action's effect raises it
  },
  actions = {
    mm.action("chop", { effects = "wood = wood + 1" }),
    mm.action("spend", { effects = "gold = gold - 1" }),
  },
}
