-- want: ^testdata/hostile/mem_hash_cleared_strings\.lua:(1[4-9]|2[01]): memory limit exceeded \(64 MiB\): (the (body|running code) holds about|built-ins would allocate)
-- match: regexp (the figures depend on when the walk of what the body holds runs)
-- long string keys written and cleared again: the forgotten key keeps its string alive.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local t, n, s = {}, 0, string.rep("x", 2^20)
        while true do
          for i = 1, 8 do
            n = n + 1
            local k = s .. n
            t[k] = true
            t[k] = nil
          end
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
