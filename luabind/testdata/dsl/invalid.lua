return {
  name = "Invalid",
  extends = "nosuchrole",
  sensor = {},
  state = { ammo = 0, near = false },
  goals = {
    { name = "armed", condition = "ammo > 10", priority = 2.5 },
    { name = "calm", condition = "ammo > 0", priority = "Critical", persistent = "yes" },
  },
  actions = {
    { name = "reload", effects = "ammo = 30", fulfills = "armed", utility = { valeu = 3 } },
    { name = "reload", effects = "ammo = 20" },
  },
  conditions = { near = function() return true end },
  sensors = {
    { name = "see", evrey = 0.2, run = function() end },
    { name = "hear", every = -1, run = 5 },
  },
}
