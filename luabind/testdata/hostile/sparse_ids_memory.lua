-- want: testdata/hostile/sparse_ids_memory.lua:14: memory limit exceeded (64 MiB): the assignment of key 1500000 would pad a list with nils up to it (an integer key from 1 to 4194303 is kept in a table's list part, with a slot for every smaller key: keep sparse ids in strings or numbers past that range), on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)
-- two lookup tables keyed by ids in the list part's range: the second list would pass the memory limit, refused before it pads.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local a, b = {}, {}
        a[1500000] = "orc"
        b[1500000] = "elf"
        npc.state.done = true
      end,
    },
  },
}
