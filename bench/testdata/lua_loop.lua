-- A body that does 1,000 loop iterations (about 4,000 instructions) per tick.
return {
  name = "LuaLoop",
  state = { done = false, sum = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        while true do
          local s = 0
          for i = 1, 1000 do
            s = s + i % 7
          end
          npc.state.sum = s
          coroutine.yield()
        end
      end,
    },
  },
}
