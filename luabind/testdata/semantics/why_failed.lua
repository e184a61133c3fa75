-- A failure plan that reads why the goal failed: the trigger takes the plan
-- only for a dry well, and the body keeps the message.
return {
  name = "Fetcher",
  state = { why = "" },
  initial_goals = { "fetch" },
  plans = {
    { name = "draw", on = "goal_added", goal = "fetch",
      body = function(npc) error("the well is dry") end },
    { name = "not for rope", on = "goal_failed", goal = "fetch",
      trigger = function(goal, npc, event)
        if string.find(event.error, "rope", 1, true) then return goal end
      end,
      body = function(npc) npc.state.why = "wrong plan" end },
    { name = "walk to the river", on = "goal_failed", goal = "fetch",
      trigger = function(goal, npc, event)
        if event.kind == "goal_failed" and string.find(event.error, "dry", 1, true) then return goal end
      end,
      body = function(npc, goal, event) npc.state.why = event.error end },
  },
}
