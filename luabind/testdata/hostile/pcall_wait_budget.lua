-- want: testdata/hostile/pcall_wait_budget.lua:14: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- a loop inside a pcall that waited first: the budget stops it, at its line, and the pcall cannot swallow it.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local ok = pcall(function()
          npc:wait(0.1)
          while true do end
        end)
        npc.state.done = true
      end,
    },
  },
}
