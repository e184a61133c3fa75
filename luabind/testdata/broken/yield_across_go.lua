-- Waiting inside a string.gsub callback: gopher-lua cannot suspend the Go
-- call, so the action fails with a clear error instead of breaking the
-- coroutine.
return {
  name = "YieldAcrossGo",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "shout",
      effects = "done = true",
      run = function(npc)
        local s = string.gsub("abc", "%a", function(c)
          npc:wait(0.1)
          return c:upper()
        end)
        npc.state.done = s == "ABC"
      end,
    },
  },
}
