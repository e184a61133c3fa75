-- 2^53 + 1 cannot be kept exactly in a Lua number (it reads as 2^53): writing it fails.
return {
  name = "BigID",
  state = { id = "", small = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "label",
      effects = "done = true",
      run = function(npc)
        npc.state.small = 9007199254740991
        npc.state.id = "1234567890123456789"
        npc.state.id = 9007199254740993
        npc.state.done = true
      end,
    },
  },
}
