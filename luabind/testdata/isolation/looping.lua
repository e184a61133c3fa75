-- Never yields: the budget stops it every time.
return {
  name = "Looping",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = { { name = "spin", effects = "done = true", run = function(npc) while true do end end } },
}
