-- A newline in an action's name split every trace and plan line that
-- printed it in two.
return {
  name = "ControlName",
  state = { out = false },
  goals = { { name = "leave\tnow", condition = "out" } },
  actions = {
    { name = "open\ndoor", effects = "out = true" },
  },
}
