-- want: testdata/hostile/table_huge_loop.lua:14: memory limit exceeded (64 MiB): the assignment of key 300000 would pad a list with nils up to it (an integer key from 1 to 4194303 is kept in a table's list part, with a slot for every smaller key: keep sparse ids in strings or numbers past that range), on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)
-- assignments far past the end of fresh lists, again and again.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 100 do
          local t = {}
          t[300000] = i
        end
        npc.state.done = true
      end,
    },
  },
}
