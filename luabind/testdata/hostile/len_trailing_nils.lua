-- want: testdata/hostile/len_trailing_nils.lua:18: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- # scans the nils at the end of a list one by one: charged per slot.
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
        t[200000] = 1 -- padding charged in this resume
        t[200000] = nil
        npc:wait(0.1)
        local n = 0
        for i = 1, 100 do
          n = n + #t
        end
        npc.state.done = true
      end,
    },
  },
}
