-- A body that fills one table with 2.4 million numbers and sums them,
-- once per tick.
return {
  name = "LuaTableLoop",
  state = { done = false, sum = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        while true do
          local t = {}
          for i = 1, 2400000 do
            t[#t + 1] = i
          end
          local s = 0
          for i = 1, #t do
            s = s + t[i]
          end
          t = nil
          npc.state.sum = s
          coroutine.yield()
        end
      end,
    },
  },
}
