-- A body that never yields: the instruction budget must stop it.
return {
  name = "Runaway",
  state = { tries = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "spin",
      effects = "done = true",
      run = function(npc)
        npc.state.tries = npc.state.tries + 1
        while true do end
      end,
    },
  },
}
