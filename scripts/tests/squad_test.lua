-- Scenario tests of the SquadSoldier (moonmind test scripts/tests).
return {
  role = "../squad.lua",
  tests = {
    {
      name = "it keeps the Soldier's supply plan",
      state = { ammo = 0, magazines = 0 },
      goal = "armed",
      expect_plan = { "fetchMagazine", "reload" },
    },
    {
      name = "armed and healthy, an enemy in sight: attack",
      state = { ammo = 30, enemy_visible = true, enemy_health = 100 },
      expect_pick = "attack",
    },
  },
}
