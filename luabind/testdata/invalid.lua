return {
  name = "Invalid",
  state = { ammo = 0 },
  goals = {
    { name = "armed", condition = "ammo > 10", priorty = "high" },
    { name = "calm", condition = "ammo >", priority = "urgent" },
  },
  actions = {
    { name = "reload", pre = "ammo == 0", effects = "ammo = ammo + ", fulfills = { "armd" } },
  },
}
