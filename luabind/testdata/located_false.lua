-- A body that fails by returning false, without a reason.
return {
  name = "Quitter",
  state = { done = false },
  goals = { { name = "g", condition = "done == true" } },
  actions = {
    { name = "quit", effects = "done = true", fulfills = { "g" }, run = function(npc)
      return false
    end },
  },
}
