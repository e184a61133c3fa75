-- want: testdata/hostile/pcall_budget.lua:14: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- a runaway loop inside pcall: blamed on the script's line.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        while true do
          pcall(function()
            while true do end
          end)
        end
        npc.state.done = true
      end,
    },
  },
}
