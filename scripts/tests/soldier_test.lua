-- Scenario tests of the Soldier (moonmind test scripts/tests).
return {
  role = "../soldier.lua",
  tests = {
    {
      name = "an empty gun: fetch a magazine, then reload",
      state = { ammo = 0, magazines = 0 },
      expect_plan = { "fetchMagazine", "reload" },
    },
    {
      name = "a magazine at hand: reload at once",
      state = { ammo = 0, magazines = 1 },
      expect_plan = { "reload" },
    },
    {
      name = "armed: nothing to plan",
      state = { ammo = 30 },
      expect_plan = {},
    },
    {
      name = "armed and healthy, an enemy in sight: attack",
      state = { ammo = 30, enemy_visible = true, enemy_health = 100 },
      expect_pick = "attack",
    },
    {
      name = "badly hurt, an enemy in sight: retreat",
      state = { ammo = 30, enemy_visible = true, enemy_health = 100, health = 10 },
      expect_pick = "retreat",
    },
    {
      name = "no enemy: the utility planner picks nothing",
      state = { ammo = 30 },
      expect_pick = "",
    },
    {
      name = "reload needs a magazine",
      state = { ammo = 30, magazines = 0 },
      action = "reload",
      expect_why_not = "its precondition does not hold: magazines > 0",
    },
    {
      name = "after 5 seconds on the training ground the soldier is armed",
      state = { ammo = 0, magazines = 0 },
      ticks = 50,
      expect_state = { ammo = 30, magazines = 0 },
    },
  },
}
