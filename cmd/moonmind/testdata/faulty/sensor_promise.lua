-- An effect promised on a variable a sensor also writes: the sensor can
-- undo the promise before the step ends.
return {
  name = "Sentry",
  state = { in_cover = false, exposed = true },
  sensors = {
    { name = "cover", every = 0.5, run = function(npc)
        npc.state.in_cover = not npc.state.exposed
      end },
  },
  goals = {
    { name = "covered", condition = "in_cover" },
  },
  actions = {
    { name = "hide",
      effects = "in_cover = true", -- planted: promises in_cover, which sensor "cover" also writes
      fulfills = { "covered" } },
  },
}
