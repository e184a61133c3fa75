-- A well-behaved agent for BenchmarkHostileWorldTick: it counts, builds a
-- small list and waits, forever.
return {
  name = "Victim",
  state = { steps = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "walk",
      effects = "done = true",
      run = function(npc)
        while true do
          npc.state.steps = npc.state.steps + 1
          local t = {}
          for j = 1, 100 do t[j] = j * npc.state.steps end
          npc:wait(0.2)
        end
      end,
    },
  },
}
