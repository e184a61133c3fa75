-- Waiting inside a table.sort comparator cannot work: gopher-lua cannot
-- suspend the Go sort. The sandbox refuses it with a clear error.
return {
  name = "SortWait",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "sorting",
      effects = "done = true",
      run = function(npc)
        local t = { 3, 1, 2 }
        table.sort(t, function(a, b)
          npc:wait(0.1)
          return a < b
        end)
        npc.state.done = true
      end,
    },
  },
}
