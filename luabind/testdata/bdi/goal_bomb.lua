-- Every intention of g adds 100 more goals that its own plan serves: the
-- intentions would grow a hundredfold a tick without a bound.
return {
  name = "GoalBomb",
  state = { n = 0 },
  initial_goals = { "g" },
  plans = {
    { name = "g", on = "goal_added", goal = "g",
      body = function(npc) for i = 1, 100 do npc:also_achieve({ "g", i }) end end },
  },
}
