return {
  name = "Secured",
  state = { rich = false },
  goals = { { name = "money", condition = "rich" } },
  actions = {
    { name = "Rob", effects = "rich = true", restricted = "crime" },
    { name = "Beg", effects = "rich = true", restricted = true },
    { name = "Work", effects = "rich = true", cost = 5, restricted = false },
  },
}
