-- A body that makes 1,000 calls per tick, through pcall or directly
-- (state "protected" picks), of a function that does not yield.
return {
  name = "LuaPcall",
  state = { done = false, protected = true, sum = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local function add(a, b) return a + b end
        local protected = npc.state.protected
        while true do
          local s = 0
          if protected then
            for i = 1, 1000 do
              local _, v = pcall(add, s, i)
              s = v
            end
          else
            for i = 1, 1000 do
              local _, v = true, add(s, i)
              s = v
            end
          end
          npc.state.sum = s
          coroutine.yield()
        end
      end,
    },
  },
}
