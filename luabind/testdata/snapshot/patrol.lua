-- A guard for the save and load tests: it seeds its own random source
-- once, then walks rounds that take a random number of ticks.
return {
  name = "Patrol",
  state = { seeded = false, walked = false, rounds = 0, roll = 0 },
  goals = { { name = "patrolled", condition = "walked" } },
  actions = {
    { name = "seed", pre = "!seeded", effects = "seeded = true", run = function(npc)
        math.randomseed(7)
        npc.state.seeded = true
      end },
    { name = "walk", pre = "seeded", effects = "walked = true", fulfills = { "patrolled" }, run = function(npc)
        npc:wait(0.05 * math.random(1, 3))
        npc.state.roll = math.random(1, 100)
        npc.state.rounds = npc.state.rounds + 1
        npc.state.walked = true
      end },
  },
}
