-- A plan library: a module returning a list of plans.
return {
  { name = "tea", on = "goal_added", goal = "drink",
    guard = function(g, npc) if g == "drink" then return { what = "tea" } end end,
    body = function(npc, ctx) npc:print("making", ctx.what) end },
  { name = "water", on = "goal_added", goal = "drink",
    body = function(npc) npc:print("water") end },
}
