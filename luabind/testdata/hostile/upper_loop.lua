-- want: testdata/hostile/upper_loop.lua:17: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- string.upper of 40,000 bytes 120 times in one resume: upper, lower and
-- reverse cost a unit per 8 bytes (they build their result a byte at a
-- time), so they spend a default budget (at a unit per 64 bytes they
-- would pass).
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local s = string.rep("a", 40000)
        for i = 1, 120 do
          local u = s:upper()
        end
        npc.state.done = true
      end,
    },
  },
}
