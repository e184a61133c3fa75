-- Lookup tables keyed by entity ids: sparse ids in the list part's range,
-- negative, zero, huge and fractional keys, in a constant table of the
-- role file and in tables a body builds.
local names = { [700000] = "orc", [700001] = "elf", [-5] = "ghost", [0] = "zero", [2^40] = "far", [0.5] = "half" }

return {
  name = "Sparse",
  state = { done = false, seen = "", count = 0 },
  goals = { { name = "g", condition = "done" } },
  actions = {
    { name = "look", effects = "done = true", run = function(npc)
        local t = {}
        t[700000] = "orc"
        t[700000.0] = "orc again" -- the same key
        t[-7], t[2^40 + 1], t[1.5] = "a", "b", "c"
        npc:wait(0.1)
        local u = {}
        u[900000] = "troll"
        local n = 0
        for _ in pairs(t) do n = n + 1 end
        npc.state.count = n
        npc.state.seen = table.concat({ names[700000], names[700001], names[-5], names[0], names[2^40], names[0.5],
          t[700000], t[-7], t[2^40 + 1], t[1.5], u[900000] }, ",")
        npc.state.done = true
      end },
  },
}
