-- A gsub with a Lua callback over 1,000,000 characters: the callback counts against the instruction budget.
return {
  name = "GsubBudget",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local n = 0
        local s = string.rep("a", 1000000):gsub(".", function(c)
          n = n + 1
          return c
        end)
        npc.state.done = true
      end,
    },
  },
}
