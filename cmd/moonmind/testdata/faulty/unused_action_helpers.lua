local mm = require("moonmind")
return mm.role {
  name = "HelperDancer",
  decide = "goap",
  state = { wood = 0, joy = 0 },
  goals = {
    mm.goal("stocked", "wood >= 2"),
  },
  actions = {
    mm.action("chop", { effects = "wood = wood + 1" }),
    mm.action("dance", { effects = "joy = joy + 1" }), -- planted: no goal can use it
  },
}
