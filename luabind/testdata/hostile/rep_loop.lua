-- want: testdata/hostile/rep_loop.lua:13: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- string.rep of 16 MiB in a loop: the bytes count as work.
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
          local s = string.rep("x", 16 * 1024 * 1024 - 1)
        end
        npc.state.done = true
      end,
    },
  },
}
