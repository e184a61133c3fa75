-- The combat choice proposed for scripts/soldier.lua (issue 5): attack,
-- take cover or retreat, by health, ammo and distance. Bodies are left out;
-- load_consider_test.go checks the picks.
return {
  name = "SoldierCombat",
  decide = "utility",
  utility_mode = "multiply",
  state = {
    ammo = 30, magazines = 1, health = 100,
    enemy_visible = true, enemy_health = 100, enemy_distance = 200, in_cover = false,
  },
  -- Actions without their own list (the supply actions, which the GOAP
  -- goal "armed" plans) score 0 here, so they never win a combat pick.
  considerations = { 'hasTag("combat")' },
  actions = {
    { name = "fetchMagazine", effects = "magazines = magazines + 1", utility = { cost = 20, value = 30, tags = { "supply" } } },
    { name = "reload", pre = "magazines > 0", effects = "ammo = 30, magazines = magazines - 1", utility = { cost = 5, value = 50, tags = { "supply" } } },
    {
      name = "attack",
      pre = "enemy_visible && ammo > 0 && enemy_health > 0",
      utility = { tags = { "combat" } },
      considerations = {
        { name = "has ammo", input = "ammo", min = 0, max = 30, curve = "logistic", slope = 15, offset = 0.15 },
        { name = "healthy", input = "health", min = 0, max = 100, curve = "logistic", slope = 12, offset = 0.4 },
        { name = "in range", input = "enemy_distance", min = 0, max = 600, curve = "polynomial", exponent = 2, offset = 1 },
      },
    },
    {
      name = "takeCover",
      pre = "enemy_visible && !in_cover",
      utility = { tags = { "combat" } },
      considerations = {
        { name = "hurt", input = "health", min = 100, max = 0, curve = "logistic", slope = 10, offset = 0.5 },
        { name = "threat near", input = "enemy_distance", min = 600, max = 0 },
      },
    },
    {
      name = "retreat",
      pre = "enemy_visible",
      utility = { tags = { "combat" } },
      considerations = {
        { name = "badly hurt", input = "health", min = 100, max = 0, curve = "logistic", slope = 14, offset = 0.75 },
      },
    },
  },
}
