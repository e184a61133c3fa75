-- want: ^testdata/hostile/mem_strings\.lua:1[4-6]: memory limit exceeded \(64 MiB\): 
-- match: regexp (the figures, and for padding the line the watchdog stops at, depend on when the Go heap was collected)
-- strings kept across ticks.
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
        while true do
          keep[#keep + 1] = string.rep("x", 4000000) .. #keep
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
