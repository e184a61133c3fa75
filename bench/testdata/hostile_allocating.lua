-- A hostile agent of BenchmarkHostileWorldTick: it keeps 4 MB more every
-- tick until its memory limit stops it, then starts again.
return {
  name = "Allocating",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "hoard",
      effects = "done = true",
      run = function(npc)
        local keep = {}
        while true do
          keep[#keep + 1] = string.rep("z", 4000000) .. #keep
          npc:wait(0.1)
        end
      end,
    },
  },
}
