local mm = require("moonmind")
return mm.role {
  name = "HelperMoody",
  state = { calm = 0, mood = "calm" },
  goals = {
    mm.goal("calm", "calm >= 1"),
  },
  actions = {
    mm.action("breathe", { effects = "calm = calm + 1", fulfills = { "calm" } }),
    mm.action("sulk", {
      pre = "calm < 1",
      fulfills = { "calm" },
      effects = "mood = mood - 1, calm = calm + 1", -- planted: does arithmetic on mood, which holds a string
    }),
  },
}
