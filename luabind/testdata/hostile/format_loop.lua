-- want: testdata/hostile/format_loop.lua:16: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- 6,000 string.format calls of two conversions in one resume: each
-- conversion costs 32 units on top of its bytes (Go's fmt, about 1 µs a
-- call), so they spend a default budget (by their bytes alone they would
-- pass).
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 6000 do
          local s = string.format("%5d %5d", i, i)
        end
        npc.state.done = true
      end,
    },
  },
}
