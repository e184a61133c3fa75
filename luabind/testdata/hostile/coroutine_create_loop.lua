-- want: testdata/hostile/coroutine_create_loop.lua:15: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- a thousand coroutines created in one resume: each builds a whole Lua
-- state (about 12 KB, 8-9 µs of CPU) and is charged 512 units, so they
-- spend a default budget (at 32 units each they would pass).
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 1000 do
          local co = coroutine.create(function() end)
        end
        npc.state.done = true
      end,
    },
  },
}
