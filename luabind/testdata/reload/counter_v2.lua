-- Version 2: counts up by a hundred and has a new variable.
return {
  name = "Counter",
  decide = "utility",
  state = { count = 0, label = "v2", bonus = 7 },
  goals = { { name = "counted", condition = "count >= 1000" } },
  actions = {
    {
      name = "step",
      effects = "count = count + 100",
      run = function(npc)
        npc.state.count = npc.state.count + 100
      end,
    },
  },
}
