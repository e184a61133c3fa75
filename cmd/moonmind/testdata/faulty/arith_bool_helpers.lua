-- The same mistake with the mm.* helpers, on a boolean.
local mm = require("moonmind")
return mm.role {
  name = "Helper",
  state = { tired = false, rest = 0 },
  goals = {
    mm.goal("rested", "rest >= 2"),
  },
  actions = {
    mm.action("nap", {
      effects = "rest = rest + 1",
    }),
    mm.action("yawn", {
      pre = "rest < 2",
      effects = "rest = rest + 1, tired = tired - 1", -- planted: does arithmetic on tired, which holds a bool
    }),
  },
}
