-- want: testdata/hostile/insert_trailing_nils.lua:17: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- table.insert finds #t by scanning trailing nils: charged per slot.
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
        t[400000] = 1
        t[400000] = nil
        for i = 1, 100 do
          table.insert(t, i)
          t[#t] = nil
        end
        npc.state.done = true
      end,
    },
  },
}
