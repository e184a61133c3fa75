-- The courier of luabind's examples: its body calls two host methods the
-- game provides, one that answers at once with results and one that takes
-- ticks.
return {
  name = "Courier",
  state = { delivered = false },
  goals = { { name = "delivered", condition = "delivered" } },
  actions = {
    { name = "deliver", effects = "delivered = true", run = function(npc)
        local where, steps = npc:lookup("parcel")
        npc:print("parcel at " .. where .. ", " .. steps .. " steps")
        npc:walk(steps)
        npc.state.delivered = true
      end },
  },
}
