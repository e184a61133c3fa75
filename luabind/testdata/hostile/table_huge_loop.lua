-- want: testdata/hostile/table_huge_loop.lua:14: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- assignments far past the end of fresh lists, again and again.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 100 do
          local t = {}
          t[300000] = i
        end
        npc.state.done = true
      end,
    },
  },
}
