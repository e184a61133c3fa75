-- A 19-digit id cannot be kept exactly in a Lua number: writing one fails.
return {
  name = "BigID",
  state = { id = "", small = 0, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "label",
      effects = "done = true",
      run = function(npc)
        npc.state.small = 9007199254740992
        npc.state.id = "1234567890123456789"
        npc.state.id = 1234567890123456789
        npc.state.done = true
      end,
    },
  },
}
