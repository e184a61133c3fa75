return {
  name = "Failing",
  state = { tries = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "explode",
      effects = "done = true",
      run = function(npc)
        npc.state.tries = npc.state.tries + 1
        local t = nil
        return t.field
      end,
    },
  },
}
