-- A sensor that does a little work each tick. Used by tick_budget_test.go
-- next to an agent that spends its whole tick budget.
return {
  name = "Light",
  state = { seen = 0, done = false },
  goals = { { name = "g", condition = "done" } },
  sensors = {
    { name = "look", run = function(npc) local x = 0; for i = 1, 1000 do x = x + i end; npc.state.seen = npc.state.seen + 1 end },
  },
  actions = { { name = "a", effects = "done = true", run = function(npc) npc:wait(10) end } },
}
