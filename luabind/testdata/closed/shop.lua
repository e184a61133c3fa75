-- A role that runs Lua in every place a tick can: a sensor, a consideration
-- function, a reactive plan and an action body that waits across ticks.
return {
  name = "Shop",
  state = { stock = 0, ticks = 0, alarm = false, rang = 0 },
  decide = "hybrid",
  considerations = { function(action, state) return 1 end },
  goals = { { name = "stocked", condition = "stock >= 3" } },
  sensors = {
    { name = "clock", every = 0, run = function(npc) npc.state.ticks = npc.state.ticks + 1 end },
  },
  actions = {
    { name = "restock", effects = "stock = stock + 3",
      run = function(npc) npc:wait(1); npc.state.stock = npc.state.stock + 3 end },
  },
  plans = {
    { name = "ring", on = "belief_added", belief = "alarm",
      body = function(npc) npc.state.rang = npc.state.rang + 1 end },
  },
}
