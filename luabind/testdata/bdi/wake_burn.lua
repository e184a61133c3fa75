-- Each belief event starts an intention that works hard, under one
-- resume's budget, then raises the next event: without a budget per tick
-- the chain would run 10,000 resumes' worth of work in one tick.
return {
  name = "WakeBurn",
  state = { x = 0 },
  quiet_beliefs = true,
  initial_goals = { "go" },
  plans = {
    { name = "go", on = "goal_added", goal = "go", body = function(npc) npc:believe("x", 1) end },
    { name = "on", on = "belief_added", belief = "x",
      body = function(npc, b)
        local s = 0
        for i = 1, 2000 do s = s + i end
        npc:believe("x", b.value + 1)
      end },
  },
}
