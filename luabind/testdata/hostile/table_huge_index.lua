-- want: testdata/hostile/table_huge_index.lua:13: memory limit exceeded (64 MiB): the assignment of key 4000000 would pad a list with nils up to it (an integer key from 1 to 4194303 is kept in a table's list part, with a slot for every smaller key: keep sparse ids in strings or numbers past that range), on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)
-- one assignment far past a list's end would pad it with 4 million nils in one instruction: charged to the memory limit first.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local t = {}
        t[4000000] = 1
        npc.state.done = true
      end,
    },
  },
}
