-- A body that asks the model for a plan and keeps the first step, or why
-- there is none.
return {
  name = "Asker",
  state = { answer = "", asked = false },
  goals = { { name = "asked", condition = "asked" } },
  actions = {
    { name = "ask", effects = "asked = true",
      run = function(npc)
        local plan, why = npc:llm_plan("get armed")
        if plan then npc.state.answer = plan.steps[1].action else npc.state.answer = why end
        npc.state.asked = true
      end },
  },
}
