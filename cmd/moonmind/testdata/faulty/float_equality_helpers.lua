local mm = require("moonmind")
return mm.role {
  name = "HelperBrewer",
  state = { mix = 0, heat = 0 },
  goals = {
    mm.goal("warm", "heat >= 2"),
    mm.goal("brewed", "mix == 1"), -- planted: mix == 1 compares exactly with a number that action "stir" changes by a fractional step
  },
  actions = {
    mm.action("stoke", { effects = "heat = heat + 1" }),
    mm.action("stir", { effects = "mix = mix + 0.1" }),
  },
}
