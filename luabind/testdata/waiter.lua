return {
  name = "Waiter",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "linger",
      effects = "done = true",
      run = function(npc)
        npc:wait(1.5)
        npc.state.done = true
      end,
    },
  },
}
