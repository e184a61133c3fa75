-- Eight copies of every byte of a 16 MB string: refused at 16 MiB.
return {
  name = "GsubBomb",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local s = string.rep("a", 16000000)
        s = s:gsub("a", "%0%0%0%0%0%0%0%0")
        npc.state.done = true
      end,
    },
  },
}
