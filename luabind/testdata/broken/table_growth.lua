-- A body that grows a table without end: the budget stops it first.
return {
  name = "TableGrowth",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "hoard",
      effects = "done = true",
      run = function()
        local t = {}
        while true do
          t[#t + 1] = { #t }
        end
      end,
    },
  },
}
