-- A width of nine digits: refused as in Lua 5.1.
return {
  name = "FormatWidth",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local s = string.format("%999999999d", 1)
        npc.state.done = true
      end,
    },
  },
}
