-- want: ^testdata/hostile/mem_padding\.lua:1[5-8]: memory limit exceeded \(64 MiB\): 
-- match: regexp (the figures, and for padding the line the watchdog stops at, depend on when the Go heap was collected)
-- assignments far past the end of lists pad them, one per tick (each within
-- the work budget), and the padded lists are kept.
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
        for i = 1, 1000 do
          local t = {}
          t[240000] = i
          keep[i] = t
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
