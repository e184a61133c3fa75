-- A commander whose call options depend on npc.state.mode (set by the test).
local calls = {
  routed = { model = "best", temperature = 0.9, context = "the bridge is out" },
  default = { model = "default" },
  plain = {},
  denied = { deny = { "bridge" } },
  long = { max_goal_chars = 5 },
  unknown = { model = "bets" },
}
return {
  name = "Asker",
  state = { mode = "plain", done = false, actions = "", why = "" },
  goals = { { name = "planned", condition = "done" } },
  actions = {
    { name = "ask", pre = "mode != 'action'", effects = "done = true",
      run = function(npc)
        local plan, why = npc:llm_plan("cross the bridge", calls[npc.state.mode])
        if plan then npc.state.actions = plan.steps[1].action else npc.state.why = why end
        npc.state.done = true
      end },
    -- Its calls ask the model role the action names, unless a call names one.
    { name = "askBest", pre = "mode == 'action'", effects = "done = true", llm_model = "best",
      run = function(npc)
        local plan, why = npc:llm_plan("cross the bridge")
        if plan then npc.state.actions = plan.steps[1].action else npc.state.why = why end
        npc.state.done = true
      end },
  },
}
