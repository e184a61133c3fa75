-- want: testdata/hostile/error_nil.lua:12: an error value that is a nil, not a message (raise errors with a string)
-- error(nil).
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        error(nil)
        npc.state.done = true
      end,
    },
  },
}
