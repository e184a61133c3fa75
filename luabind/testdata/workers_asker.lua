-- Asks a language model once and prints the first step's arguments in the
-- order pairs gives them.
return {
  name = "Asker",
  state = { done = false },
  goals = { { name = "asked", condition = "done == true" } },
  actions = {
    { name = "ask", effects = "done = true", fulfills = { "asked" }, run = function(npc)
        local plan, why = npc:llm_plan("pick a route", { timeout = 100 })
        if not plan then error(why) end
        local keys = {}
        for k, v in pairs(plan.steps[1].arguments) do keys[#keys + 1] = k .. "=" .. tostring(v) end
        npc:print("args", table.concat(keys, " "), tostring({}))
        npc.state.done = true
      end },
    { name = "go" },
  },
}
