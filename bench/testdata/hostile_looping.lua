-- A hostile agent of BenchmarkHostileWorldTick: it never yields, so the
-- budget stops it every time it runs.
return {
  name = "Looping",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = { { name = "spin", effects = "done = true", run = function(npc) while true do end end } },
}
