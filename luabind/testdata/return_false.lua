-- A body fails by returning false and a reason.
return {
  name = "ReturnFalse",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "try",
      effects = "done = true",
      run = function(npc)
        npc:wait(0.1)
        return false, "the door is locked"
      end,
    },
  },
}
