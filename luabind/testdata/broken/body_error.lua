-- A runtime error in a body fails the action.
return {
  name = "BodyError",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "oops",
      effects = "done = true",
      run = function(npc)
        npc:wait(0.1)
        npc.state.done = npc.state.missing
      end,
    },
  },
}
