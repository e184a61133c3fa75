-- A body that writes far past the end of an array: gopher-lua would pad
-- the array part (1 GiB for this key); the sandbox keeps such keys in the
-- hash part.
return {
  name = "SparseArray",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "sparse",
      effects = "done = true",
      run = function(npc)
        local tables = {}
        for i = 1, 64 do
          local t = {}
          t[67108863] = i
          tables[i] = t
        end
        npc.state.done = tables[64][67108863] == 64
      end,
    },
  },
}
