-- Lua's math.huge is the largest float64, not infinity: it passed as a
-- finite cost, and a plan of two such steps cost +Inf.
return {
  name = "HugeCost",
  state = { x = 0 },
  goals = { { name = "g", condition = "x > 1" } },
  actions = {
    { name = "step", cost = math.huge, effects = "x = x + 1" },
  },
}
