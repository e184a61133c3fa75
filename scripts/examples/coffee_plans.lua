-- A plan library (a module that returns a list of plans): how to prepare
-- a coffee, and what to do when it cannot be done. Install it with
-- plans = mm.plans(require("coffee_plans"), { ... }).
return {
  { name = "brew", on = "goal_added", goal = "prepare",
    guard = function(goal, npc)
      if npc.state.beans then return { coffee = goal[2] } end
    end,
    body = function(npc, ctx)
      npc:wait(0.2)
      return "cup of " .. ctx.coffee
    end },
  { name = "buy beans", on = "goal_failed", goal = "prepare",
    body = function(npc, goal)
      npc:print("I could not prepare the", goal[2] .. ": buying beans and trying again")
      npc:wait(0.5)
      npc:believe("beans")
      return npc:achieve_with_result(goal)
    end },
}
