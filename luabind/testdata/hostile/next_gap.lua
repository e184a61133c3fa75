-- want: testdata/hostile/next_gap.lua:16: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- next scans the nils before the next item one by one: charged per slot.
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
        npc:wait(0.1)
        for i = 1, 100 do
          local k = next(t)
        end
        npc.state.done = true
      end,
    },
  },
}
