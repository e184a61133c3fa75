-- Version 1: counts up by one per action.
return {
  name = "Counter",
  decide = "utility",
  state = { count = 0, label = "v1" },
  goals = { { name = "counted", condition = "count >= 1000" } },
  actions = {
    {
      name = "step",
      effects = "count = count + 1",
      run = function(npc)
        npc.state.count = npc.state.count + 1
      end,
    },
  },
}
