-- A commander that asks a language model for a plan and waits for it
-- (the benchmark's server never answers).
return {
  name = "LLMWaiter",
  state = { done = false },
  goals = { { name = "planned", condition = "done == true" } },
  actions = {
    {
      name = "ask",
      effects = "done = true",
      fulfills = { "planned" },
      run = function(npc)
        npc:llm_plan("hold the bridge", { timeout = 1e9 })
        npc.state.done = true
      end,
    },
  },
}
