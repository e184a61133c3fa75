-- want: ^testdata/hostile/mem_tables\.lua:(1[5-9]|20): memory limit exceeded \(64 MiB\): 
-- match: regexp (the figures, and for padding the line the watchdog stops at, depend on when the Go heap was collected)
-- small tables kept across ticks.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local keep = {}
        local n = 0
        while true do
          for i = 1, 20000 do
            n = n + 1
            keep[n] = { n, n + 1 }
          end
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
