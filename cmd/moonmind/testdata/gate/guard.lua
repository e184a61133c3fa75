-- A guard chases an intruder once its sensor sees one: the precondition
-- waits for the sensor, not for another action. Sound, although no plan
-- exists from the initial state.
return {
  name = "Guard",
  state = { intruder_seen = false, intruder_gone = false },
  sensors = {
    { name = "eyes", every = 0.5, run = function(npc)
        npc.state.intruder_seen = npc:sees_intruder()
      end },
  },
  goals = {
    { name = "safe", condition = "intruder_gone" },
  },
  actions = {
    { name = "chase", pre = "intruder_seen", effects = "intruder_gone = true" },
  },
}
