local mm = require("moonmind")
return {
  name = "BadArgs",
  state = { bell = false },
  plans = mm.plans({
    { on = "goal_added", goal = "field", body = function(npc) npc:wait_event({ nmae = "bell" }) end },
    { on = "goal_added", goal = "kind", body = function(npc) npc:wait_event({ kind = "belief_add" }) end },
    { on = "goal_added", goal = "goal", body = function(npc) npc:achieve({ "x", {} }) end },
    { on = "goal_added", goal = "timeout", body = function(npc) npc:wait_event(nil, -1) end },
    { on = "goal_added", goal = "believe", body = function(npc) npc:believe("bel") end },
    { on = "goal_added", goal = "filter", body = function(npc)
        npc:wait_event(function(e) return e.nope.x end)
      end },
  }),
}
