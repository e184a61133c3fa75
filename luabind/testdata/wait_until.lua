-- npc:wait_until(fn) waits until fn(npc) is true; on_interrupt cleans up.
return {
  name = "WaitUntil",
  state = { open = false, done = false, interrupted = false, checks = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "await",
      effects = "done = true",
      run = function(npc)
        npc:wait_until(function(n)
          n.state.checks = n.state.checks + 1
          return n.state.open
        end)
        npc.state.done = true
      end,
      on_interrupt = function(npc)
        npc.state.interrupted = true
      end,
    },
  },
}
