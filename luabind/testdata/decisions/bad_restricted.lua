return {
  name = "Bad",
  state = { rich = false },
  actions = {
    { name = "Rob", effects = "rich = true", restricted = "" },
    { name = "Beg", effects = "rich = true", restricted = 3 },
  },
}
