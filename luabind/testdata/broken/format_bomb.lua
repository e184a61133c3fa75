-- Doubling a string with string.format: refused at 16 MiB, the process lives on.
return {
  name = "FormatBomb",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local s = string.rep("a", 1000000)
        for _ = 1, 14 do
          s = string.format("%s%s", s, s)
        end
        npc.state.done = true
      end,
    },
  },
}
