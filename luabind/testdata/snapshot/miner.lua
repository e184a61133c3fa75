-- A miner for the save and load tests: survey puts a table on the
-- blackboard (npc.facts.Survey), and what each mine step yields, and when
-- a new survey is needed, is read from that table. A restored world
-- decides the same only if the table came back.
return {
  name = "Miner",
  state = { ore = 0 },
  goals = { { name = "stocked", condition = "ore >= 12" } },
  actions = {
    { name = "survey", output = "Survey", run = function(npc)
        npc.facts.Survey = { veins = { math.random(1, 5), math.random(1, 5), math.random(1, 5) },
                             mined = 0, site = { name = "north", deep = true } }
      end },
    { name = "mine", inputs = { "Survey" }, effects = "ore = ore + 4", run = function(npc)
        local s = npc.facts.Survey
        s.mined = s.mined + 1
        npc.state.ore = npc.state.ore + s.veins[s.mined]
        if s.mined == #s.veins then npc.facts.Survey = nil end
      end },
  },
}
