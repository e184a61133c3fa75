-- A soldier that fetches a magazine from a crate, a smart object of the
-- game: the step holds a slot of the crate while it runs.
local mm = require("moonmind")

return mm.role {
  name = "Fetcher",
  state = { magazines = 0 },
  goals = { { name = "armed", condition = "magazines > 0" } },
  actions = {
    { name = "fetch", uses = "crate", effects = "magazines = magazines + 1",
      run = function(npc)
        npc:print("at " .. npc.holds)
        npc:wait(0.2)
        npc.state.magazines = npc.state.magazines + 1
      end },
  },
}
