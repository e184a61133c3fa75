-- A commander that runs the model's plan step by step (execute) and lets
-- the model revise it when a step fails; npc.state.limit is max_replans.
return {
  name = "Crosser",
  state = { limit = 3, done = false, log = "", success = false, completed = false, replans = -1, last = "" },
  goals = { { name = "planned", condition = "done" } },
  actions = {
    { name = "go", effects = "done = true",
      run = function(npc)
        local res, why = npc:llm_plan("reach the far bank", {
          max_replans = npc.state.limit,
          execute = function(step, npc)
            npc:wait(0.1) -- a step takes game time
            if step.action == "cross" then return false, "the bridge is out" end
            return true, step.action .. " done"
          end,
        })
        if not res then npc.state.log = why; npc.state.done = true; return end
        local parts = {}
        for i, r in ipairs(res.results) do
          parts[i] = r.action .. ":" .. (r.success and "ok" or r.error) .. "@" .. r.attempt
        end
        npc.state.log = table.concat(parts, ",")
        npc.state.success, npc.state.completed, npc.state.replans = res.success, res.completed, res.replans
        npc.state.last = res.plan.steps[1].action
        npc.state.done = true
      end },
  },
}
