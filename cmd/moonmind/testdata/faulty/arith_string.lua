return {
  name = "Moody",
  state = { calm = 0, mood = "calm" },
  goals = {
    { name = "calm", condition = "calm >= 1" },
  },
  actions = {
    { name = "breathe", effects = "calm = calm + 1", fulfills = { "calm" } },
    { name = "sulk",
      pre = "calm < 1",
      effects = "calm = calm + 1, mood = mood + 1", -- planted: does arithmetic on mood, which holds a string
      fulfills = { "calm" },
    },
  },
}
