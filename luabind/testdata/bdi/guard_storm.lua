-- Every tick a sensor changes three beliefs, and every belief event meets a
-- plan whose guard fails and one whose trigger fails; three goals meet a
-- failing guard too. Each failing function is recorded once a tick.
return {
  name = "Storm",
  state = { a = 0, b = 0, c = 0 },
  initial_goals = { "g1", "g2", "g3" },
  sensors = {
    { name = "stir", run = function(npc)
        npc.state.a = npc.state.a + 1
        npc.state.b = npc.state.b + 1
        npc.state.c = npc.state.c + 1
      end },
  },
  plans = {
    { name = "bad guard", on = "belief_added",
      guard = function(b) return b.value .. {} end,
      body = function() end },
    { name = "bad trigger", on = "belief_added",
      trigger = function(b) return b.nothing.value end,
      body = function() end },
    { name = "goal guard", on = "goal_added",
      guard = function(g) error("no " .. tostring(g)) end,
      body = function() end },
  },
}
