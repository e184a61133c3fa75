-- A role whose npc:llm_plan calls ask the model role "cheapest" unless
-- the call or the running action names another (npc.state.mode, set by
-- the test, picks the action and the call's options).
local calls = {
  plain = nil,
  call = { model = "best" },
  call_over_action = { model = "default" },
}
return {
  name = "RoleModel",
  llm_model = "cheapest",
  state = { mode = "plain", done = false, actions = "" },
  goals = { { name = "planned", condition = "done" } },
  actions = {
    { name = "ask", pre = "mode != 'action' && mode != 'call_over_action'", effects = "done = true",
      run = function(npc)
        local plan = npc:llm_plan("cross the bridge", calls[npc.state.mode])
        npc.state.actions = plan.steps[1].action
        npc.state.done = true
      end },
    { name = "askBest", pre = "mode == 'action' || mode == 'call_over_action'", effects = "done = true", llm_model = "best",
      run = function(npc)
        local plan = npc:llm_plan("cross the bridge", calls[npc.state.mode])
        npc.state.actions = plan.steps[1].action
        npc.state.done = true
      end },
  },
}
