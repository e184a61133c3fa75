local mm = require("moonmind")
return mm.role {
  name = "HelperTypo",
  state = { ammo = 0 },
  goals = {
    mm.goal("safe", "ammo > 0"),
    mm.goal("armed", "ammo > 10", {
      priorty = "high", -- planted: unknown key "priorty"
    }),
  },
  actions = {
    mm.action("reload", { effects = "ammo = 30", fulfills = { "armed", "safe" } }),
  },
}
