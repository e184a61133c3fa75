-- A parent role written with the DSL helpers.
local mm = require("moonmind")

return mm.role {
  name = "Base",
  state = { hp = 100, ammo = 5, seen = 0 },
  goals = {
    mm.goal("armed", "ammo > 10", { priority = mm.HIGH }),
    mm.goal("safe", "hp > 50"),
  },
  actions = {
    mm.action("reload", {
      effects = "ammo = 30",
      fulfills = "armed",
      run = function(npc) npc.state.ammo = 30 end,
    }),
    mm.action("heal", {
      effects = "hp = 100",
      fulfills = "safe",
      run = function(npc) npc.state.hp = 100 end,
    }),
  },
}
