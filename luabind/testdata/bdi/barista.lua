-- The seed's barista: preparing fails without beans; the failure plan buys
-- beans and prepares again, and the cup it gets completes the first goal.
return {
  name = "Barista",
  state = { beans = false, served = "" },
  initial_goals = { "serve" },
  plans = {
    { name = "serve", on = "goal_added", goal = "serve",
      body = function(npc)
        local cup = npc:achieve_with_result({ "prepare", "espresso" })
        npc:print("served", cup)
        npc.state.served = cup
        return cup
      end },
    { name = "brew", on = "goal_added", goal = "prepare",
      guard = function(ctx, npc) if npc.state.beans then return ctx end end,
      body = function(npc, goal)
        npc:wait(0.2)
        return "cup of " .. goal[2]
      end },
    { name = "buy beans", on = "goal_failed", goal = "prepare",
      body = function(npc, goal)
        npc:print("I could not prepare the", goal[2], "buying beans and trying again")
        npc:believe("beans")
        return npc:achieve_with_result(goal)
      end },
  },
}
