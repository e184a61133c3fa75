-- A body that asks for ten gigabytes: refused, the process lives on.
return {
  name = "HugeString",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "hoard",
      effects = "done = true",
      run = function(npc)
        local s = string.rep("x", 1e10)
        npc.state.done = #s > 0
      end,
    },
  },
}
