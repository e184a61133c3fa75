-- The same with the mm.* helpers: a sensor believes what an effect promises.
local mm = require("moonmind")
return mm.role {
  name = "HelperSentry",
  state = { fed = false, hungry = true },
  sensors = {
    mm.sensor("stomach", 1, function(npc) npc:believe("fed", not npc.state.hungry) end),
  },
  goals = {
    mm.goal("full", "fed"),
  },
  actions = {
    mm.action("eat", {
      fulfills = { "full" },
      effects = "fed = true", -- planted: promises fed, which sensor "stomach" also writes
    }),
  },
}
