-- docs/reactive-plans.md, Traces (TestBodyBeliefIsRecordedTheTickAfter): a belief an action body writes in its
-- last resume is recorded one tick after the body's finish.
return {
  name = "Ringer",
  state = { rung = false, bell = false },
  goals = { { name = "done", condition = "rung" } },
  actions = {
    { name = "ring", effects = "rung = true",
      run = function(npc)
        npc:wait(0.2)
        npc.state.bell = true -- written at tick 3, in the resume that finishes
        npc.state.rung = true
      end },
  },
  plans = {
    { on = "belief_added", belief = "bell", body = function(npc) npc:print("heard the bell") end },
  },
}
