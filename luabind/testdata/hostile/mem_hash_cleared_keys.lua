-- want: ^testdata/hostile/mem_hash_cleared_keys\.lua:(1[4-9]|2[01]): memory limit exceeded \(64 MiB\): the (body|running code) holds about
-- match: regexp (the figures depend on when the walk of what the body holds runs)
-- integer keys written and cleared again: gopher-lua never forgets a key of a hash part, so each keeps costing memory.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local t, n = {}, 0
        while true do
          for i = 1, 60000 do
            n = n + 1
            t[-n] = true
            t[-n] = nil
          end
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
