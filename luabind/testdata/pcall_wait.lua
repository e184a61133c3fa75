-- npc:wait inside pcall: the sandbox's pcall lets the body yield through it.
return {
  name = "PcallWait",
  state = { done = false, ok = false, caught = "" },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "careful",
      effects = "done = true",
      run = function(npc)
        local ok = pcall(function() npc:wait(1) end)
        local _, err = pcall(function()
          npc:wait(0.5)
          error("boom")
        end)
        npc.state.ok = ok
        npc.state.caught = err
        npc.state.done = true
      end,
    },
  },
}
