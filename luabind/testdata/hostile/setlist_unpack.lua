-- want: testdata/hostile/setlist_unpack.lua:18: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- a table constructor around unpack appends 20,000 values in one
-- instruction; twelve of them spend a default budget (each is charged
-- 4 units per value; at a quarter unit per value for unpack alone they
-- would pass).
local numbers = {}
for i = 1, 20000 do numbers[i] = i end
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        for i = 1, 12 do
          local copy = { unpack(numbers) }
        end
        npc.state.done = true
      end,
    },
  },
}
