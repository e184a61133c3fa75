-- A trigger storm: every intention of "flip" believes n fifty times, and
-- each belief raises the event that starts "flip" again. Without bounds on
-- the event queue and on belief-started intentions, the queue and the
-- waiting coroutines grow by hundreds of megabytes a tick.
return {
  name = "BeliefStorm",
  state = { n = 0 },
  initial_goals = { "go" },
  plans = {
    { on = "goal_added", goal = "go", body = function(npc) npc:believe("n", 1) end },
    { name = "flip", on = "belief_added", belief = "n",
      body = function(npc, b)
        local believe = npc.believe -- looked up once: a lookup is charged
        for i = 1, 50 do believe(npc, "n", b.value + i) end
      end },
  },
}
