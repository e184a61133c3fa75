return {
  name = "Dot",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    { name = "nap", effects = "done = true", run = function(npc)
        npc.wait(1)
      end },
  },
}
