-- want: testdata/hostile/tostring_address.lua:12: bad target table: #1
-- an error message with a table in it.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        error("bad target " .. tostring({}))
        npc.state.done = true
      end,
    },
  },
}
