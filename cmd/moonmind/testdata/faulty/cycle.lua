return {
  name = "Loop",
  state = { p = false, q = false, done = false },
  goals = {
    { name = "finish", condition = "done" }, -- planted: no chain of actions can ever start
  },
  actions = {
    { name = "a", pre = "p", effects = "done = true", fulfills = { "finish" } },
    { name = "b", pre = "q", effects = "p = true" },
    { name = "c", pre = "p", effects = "q = true" },
  },
}
