-- want: testdata/hostile/rawset_huge.lua:13: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- rawset far past a list's end pads it too.
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
        rawset(t, 4000000, 1)
        npc.state.done = true
      end,
    },
  },
}
