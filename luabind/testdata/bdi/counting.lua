-- The seed's counting goal: {"start", n, x} re-achieves {"start", n+1, x}
-- until n = x.
return {
  name = "Counter",
  state = { reached = 0 },
  initial_goals = { { "start", 0, 5 } },
  plans = {
    { name = "count", on = "goal_added", goal = "start",
      guard = function(g) if g[2] < g[3] then return { n = g[2], x = g[3], s = g[2] + 1 } end end,
      body = function(npc, ctx)
        npc:print("Counting...", ctx.n)
        npc:achieve({ "start", ctx.s, ctx.x })
      end },
    { name = "done", on = "goal_added", goal = "start",
      body = function(npc, g)
        npc.state.reached = g[2]
        npc:print("done at", g[2])
        return g[2]
      end },
  },
}
