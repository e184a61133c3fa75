-- want: testdata/hostile/state_loop.lua:15: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- 15,000 increments of npc.state.n in one resume: each read of npc.state
-- and of npc.state.n and each write is a Go call charged 8 units, so they
-- spend a default budget (as plain instructions they would pass).
return {
  name = "Hostile",
  state = { done = false, n = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 15000 do
          npc.state.n = npc.state.n + 1
        end
        npc.state.done = true
      end,
    },
  },
}
