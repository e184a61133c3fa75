-- A backtracking pattern that would run for seconds inside one Go call: refused.
return {
  name = "PatternBomb",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        string.find(string.rep("a", 100), ".-.-.-.-b")
        npc.state.done = true
      end,
    },
  },
}
