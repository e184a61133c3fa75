return {
  name = "Lonely",
  state = { rain = false, wet = false },
  goals = {
    { name = "rained", condition = "rain" },
    { name = "soaked", condition = "wet" },
  },
  actions = {
    { name = "Swim", effects = "wet = true", run = function(npc) npc.state.wet = true end },
  },
}
