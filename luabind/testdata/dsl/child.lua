-- A child role: extends the module "base", overrides a state variable, a
-- goal and an action in place, and adds an action, a named condition and
-- a sensor.
local mm = require("moonmind")

return mm.role {
  name = "Child",
  extends = "base",
  state = { ammo = 0, stamina = 3 },
  goals = {
    mm.goal("armed", "ammo > 20 && enemy_near", { priority = "critical" }),
  },
  actions = {
    mm.action("heal", {
      effects = "hp = 90",
      fulfills = "safe",
      cost = 3,
      run = function(npc) npc.state.hp = 90 end,
    }),
    mm.action("dash", {
      pre = "stamina > 0",
      effects = "stamina = stamina - 1",
      run = function(npc) npc.state.stamina = npc.state.stamina - 1 end,
    }),
  },
  conditions = {
    enemy_near = function(npc) return npc.state.seen >= 2 end,
  },
  sensors = {
    mm.sensor("see", 0.2, function(npc) npc.state.seen = npc.state.seen + 1 end),
  },
}
