local mm = require("moonmind")
return mm.role {
  name = "HelperLoop",
  state = { p = false, q = false, done = false },
  goals = {
    mm.goal("finish", "done"), -- planted: no chain of actions can ever start
  },
  actions = {
    mm.action("a", { pre = "p", effects = "done = true", fulfills = { "finish" } }),
    mm.action("b", { pre = "q", effects = "p = true" }),
    mm.action("c", { pre = "p", effects = "q = true" }),
  },
}
