-- want: testdata/hostile/pcall_nil.lua:13: attempt to call a nil value
-- pcall of nil.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local ok, err = pcall(nil)
        error(err)
        npc.state.done = true
      end,
    },
  },
}
