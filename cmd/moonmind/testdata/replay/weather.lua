-- A walker whose sensor reads the weather from the host: a value the
-- recorded run's host gave, which the host of a replay may not give again.
return {
  name = "Walker",
  state = { weather = "none", sheltered = false, forecast = "none", noise = 0 },
  sensors = {
    { name = "sky", every = 1, run = function(npc)
        npc.state.weather = npc:weather()
        npc.state.noise = math.random(1, 100)
      end },
  },
  goals = {
    { name = "sheltered", condition = "sheltered == true" },
  },
  actions = {
    { name = "umbrella", pre = 'weather == "rain"', effects = "sheltered = true",
      run = function(npc)
        npc.state.forecast = npc:weather()
        npc:wait(0.3)
        npc.state.sheltered = true
      end },
    { name = "hat", pre = 'weather == "sun"', effects = "sheltered = true",
      run = function(npc) npc:wait(0.2); npc.state.sheltered = true end },
    { name = "stepOut", pre = "sheltered == true", effects = "sheltered = false",
      run = function(npc) npc:wait(0.1); npc.state.sheltered = false end },
  },
}
