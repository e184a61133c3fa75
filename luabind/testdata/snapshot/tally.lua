-- A clerk for the save and load tests: every step takes one tick and
-- draws from the agent's random source, so a restored world must have
-- restored that source to decide the same.
return {
  name = "Tally",
  state = { counted = false, sum = 0, last = 0 },
  goals = { { name = "counted", condition = "counted" } },
  actions = {
    { name = "count", effects = "counted = true", run = function(npc)
        npc.state.last = math.random(1, 6)
        npc.state.sum = npc.state.sum + npc.state.last
        npc.state.counted = true
      end },
  },
}
