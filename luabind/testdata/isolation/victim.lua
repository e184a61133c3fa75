-- A well-behaved agent: it waits, counts and finishes, the same way
-- every run.
return {
  name = "Victim",
  state = { steps = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "walk",
      effects = "done = true",
      run = function(npc)
        for i = 1, 5 do
          npc.state.steps = npc.state.steps + 1
          local t = {}
          for j = 1, 100 do t[j] = j * i end
          npc:wait(0.2)
        end
        npc.state.done = true
      end,
    },
  },
}
