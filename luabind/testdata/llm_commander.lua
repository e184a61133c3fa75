-- A commander that asks a language model for a plan; how it asks depends
-- on npc.state.mode (set by the test). It writes what it got into state.
return {
  name = "Commander",
  state = { mode = "plain", done = false, plan_size = -1, actions = "", arg = "", why = "",
            ammo = 0, magazines = 0 },
  goals = {
    { name = "planned", condition = "done == true", priority = "high" },
    { name = "armed", condition = "ammo > 10", priority = "low" },
  },
  actions = {
    {
      name = "ask",
      effects = "done = true",
      fulfills = { "planned" },
      run = function(npc)
        local mode = npc.state.mode
        local plan, why
        if mode == "timeout" then
          plan, why = npc:llm_plan("get armed", { timeout = 0.3 })
        elseif mode == "grounded" then
          plan, why = npc:llm_plan("get armed", { goal = "armed", fallback = "goap" })
        elseif mode == "strict" then
          plan, why = npc:llm_plan("get armed", { goal = "armed" })
        elseif mode == "caps" then
          plan, why = npc:llm_plan("get armed", { capabilities = { "reload", { name = "shout", description = "yell" } } })
        elseif mode == "badopt" then
          plan, why = npc:llm_plan("get armed", { timout = 1 })
        else
          plan, why = npc:llm_plan("get armed", { timeout = 100 })
        end
        if plan then
          npc.state.plan_size = #plan.steps
          local names = {}
          for i, s in ipairs(plan.steps) do names[i] = s.action end
          npc.state.actions = table.concat(names, ",")
          if plan.steps[1] then npc.state.arg = tostring(plan.steps[1].arguments.crate) end
        else
          npc.state.why = why
        end
        npc.state.done = true
      end,
    },
    { name = "fetchMagazine", effects = "magazines = magazines + 1", cost = 2 },
    { name = "reload", pre = "magazines > 0", effects = "ammo = 30, magazines = magazines - 1", fulfills = { "armed" } },
  },
}
