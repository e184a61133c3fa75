-- want: testdata/hostile/error_table.lua:12: an error value that is a table, not a message (raise errors with a string)
-- error({}).
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        error({ code = 1 })
        npc.state.done = true
      end,
    },
  },
}
