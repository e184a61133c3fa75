-- Issue 13.8: a number a Lua intention returns prints in shortest form in
-- its record (0.1 added three times is 0.30000000000000004).
return {
  name = "Surveyor",
  state = { length = 0 },
  initial_goals = { "measure" },
  plans = {
    { name = "pace it out", on = "goal_added", goal = "measure",
      body = function(npc)
        local x = 0
        for _ = 1, 3 do x = x + 0.1 end
        npc:wait(x)
        npc.state.length = x
        return x
      end },
  },
}
