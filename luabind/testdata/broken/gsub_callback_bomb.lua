-- A gsub callback returning a big string per match: the total is counted.
return {
  name = "GsubCallbackBomb",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local big = string.rep("x", 1000000)
        local s = string.rep("a", 100):gsub("a", function() return big end)
        npc.state.done = true
      end,
    },
  },
}
