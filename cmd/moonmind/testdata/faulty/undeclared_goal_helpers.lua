local mm = require("moonmind")
return mm.role {
  name = "HelperGoalReader",
  state = { wood = 0 },
  goals = {
    mm.goal("stocked", "wood >= 2"),
    mm.goal("warm", "fire_lit", { priority = mm.HIGH }), -- planted: "fire_lit", which no state variable
  },
  actions = {
    mm.action("chop", { effects = "wood = wood + 1", fulfills = { "stocked" } }),
  },
}
