return {
  name = "Typo",
  state = { ammo = 0 },
  goals = {
    { name = "armed", condition = "ammo > 10" },
  },
  actions = {
    { name = "reload", effects = "ammo = 30", fulfills = { "armed" },
      costt = 2 }, -- planted: unknown key "costt"
  },
}
