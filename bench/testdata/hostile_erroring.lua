-- A hostile agent of BenchmarkHostileWorldTick: it fails every time it runs.
return {
  name = "Erroring",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = { { name = "fail", effects = "done = true", run = function(npc) error("always broken") end } },
}
