-- A gsub table replacement with big values: the total is counted.
return {
  name = "GsubTableBomb",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local t = { a = string.rep("x", 1000000) }
        local s = string.rep("a", 100):gsub("%a", t)
        npc.state.done = true
      end,
    },
  },
}
