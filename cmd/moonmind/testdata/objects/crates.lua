-- A soldier whose magazines come from crates, smart objects the role
-- declares: a step of fetch holds a slot of a crate while it runs.
local mm = require("moonmind")

return mm.role {
  name = "Fetcher",
  state = { magazines = 0, ammo = 0 },
  goals = { { name = "armed", condition = "ammo > 0" } },
  objects = {
    { name = "crate1", kind = "crate", data = { magazines = 1 },
      offers = function(data) return data.magazines > 0 end },
    { name = "crate2", kind = "crate", data = { magazines = 0 },
      offers = function(data) return data.magazines > 0 end },
  },
  actions = {
    { name = "fetch", uses = "crate", effects = "magazines = magazines + 1",
      run = function(npc)
        npc:wait(0.2)
        npc.state.magazines = npc.state.magazines + 1
      end },
    { name = "reload", pre = "magazines > 0", effects = "ammo = 30, magazines = magazines - 1",
      run = function(npc)
        npc.state.ammo = 30
        npc.state.magazines = npc.state.magazines - 1
      end },
  },
}
