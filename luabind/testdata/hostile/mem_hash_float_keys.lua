-- want: ^testdata/hostile/mem_hash_float_keys\.lua:(1[4-9]|2[01]): memory limit exceeded \(64 MiB\): the (body|running code) holds about
-- match: regexp (the figures depend on when the walk of what the body holds runs)
-- keys past the list part (2^40 + n) and keys that are not integers (n + 0.5), kept across ticks.
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
          for i = 1, 30000 do
            n = n + 1
            t[2^40 + n] = n
            t[n + 0.5] = n
          end
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
