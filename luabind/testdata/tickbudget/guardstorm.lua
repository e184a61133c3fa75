-- One resume of a plan body believes 200 times; each belief event runs a
-- guard that spends about 300,000 work units and refuses. Used by
-- tick_budget_test.go: the guards share the agent's tick budget.
return {
  name = "GuardStorm",
  state = { x = 0 },
  initial_goals = { "go" },
  plans = {
    { name = "storm", on = "goal_added", goal = "go",
      body = function(npc) for i = 1, 200 do npc:believe("x", i) end end },
    { name = "heavy", on = "belief_added", belief = "x",
      guard = function(b, npc) local s = 0; for i = 1, 150000 do s = s + i end; return nil end,
      body = function(npc) end },
  },
}
