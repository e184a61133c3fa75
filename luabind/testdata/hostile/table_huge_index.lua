-- want: testdata/hostile/table_huge_index.lua:13: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- one assignment far past a list's end pads it with 4 million nils in one instruction: charged as work.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local t = {}
        t[4000000] = 1
        npc.state.done = true
      end,
    },
  },
}
