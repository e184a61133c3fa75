-- want: testdata/hostile/host_error.lua:12: npc:nearest: no kind "dragon" in the world
-- a host method that fails.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        npc:nearest("dragon")
        npc.state.done = true
      end,
    },
  },
}
