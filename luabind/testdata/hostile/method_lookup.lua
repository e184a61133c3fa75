-- want: testdata/hostile/method_lookup.lua:14: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- 60,000 bare lookups of npc.wait in one resume: each is a Go __index call
-- charged 8 units, so they spend a default budget (as plain instructions,
-- about 4 a pass, they would pass in ~240,000 units).
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 60000 do local f = npc.wait end
        npc.state.done = true
      end,
    },
  },
}
