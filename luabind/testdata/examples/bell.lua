-- Reactive plans for luabind's examples: a goal starts an intention, and
-- a belief it changes starts another.
return {
  name = "Bell",
  state = { rung = 0 },
  initial_goals = { "ring" },
  plans = {
    { name = "ring", on = "goal_added", goal = "ring", body = function(npc)
        npc:wait(0.2)
        npc:believe("rung", npc.state.rung + 1)
      end },
    { name = "echo", on = "belief_added", belief = "rung", body = function(npc, ev)
        npc:print("rung " .. ev.value .. " time(s)")
      end },
  },
}
