-- A commander whose review function decides about the model's plan as
-- npc.state.mode says (set by the test), and keeps what it got.
local decisions = {
  approve = function(plan) return true end,
  reject = function(plan) return false, "too risky" end,
  reject_table = function(plan) return { reject = "not now" } end,
  remove = function(plan) return { remove = { 2 } } end,
  order = function(plan) return { order = { 3, 1, 2 } } end,
  modify = function(plan) return { remove = { 1 }, order = { 2, 1 } } end,
  bad = function(plan) return { order = { 1, 1, 2 } } end,
  by_name = function(plan)
    for i, s in ipairs(plan.steps) do
      if s.action == "shout" then return { remove = { i } } end
    end
    return "approve"
  end,
}
return {
  name = "Reviewer",
  state = { mode = "approve", done = false, actions = "", why = "" },
  goals = { { name = "planned", condition = "done" } },
  actions = {
    { name = "ask", effects = "done = true",
      run = function(npc)
        local plan, why = npc:llm_plan("get armed", { review = decisions[npc.state.mode] })
        if plan then
          local names = {}
          for i, s in ipairs(plan.steps) do names[i] = s.action end
          npc.state.actions = table.concat(names, ",")
        else
          npc.state.why = why
        end
        npc.state.done = true
      end },
  },
}
