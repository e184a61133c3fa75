-- want: testdata/hostile/pcall_error_loop.lua:15: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- a thousand pcalls of a failing function in one resume: each failure
-- drops the pcall's worker coroutine, so the next pcall builds a new one,
-- charged as coroutine.create.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 1000 do
          pcall(error, "no")
        end
        npc.state.done = true
      end,
    },
  },
}
