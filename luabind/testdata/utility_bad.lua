-- Every mistake here must be reported with its file:line:col.
return {
  name = "Bad",
  state = { health = 100 },
  utility_mode = "multipy",
  considerations = {
    { input = "helth", min = 0, max = 100 },
    "costs",
  },
  actions = {
    {
      name = "a",
      considerations = {
        { input = "health", max = 100, curve = "sigmoid" },
        { input = "health", max = 100, slop = 3 },
      },
      utility = { cost = 0 },
    },
  },
}
