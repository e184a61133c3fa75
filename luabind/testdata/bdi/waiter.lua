-- wait_event: one wait that a bell matches, one that times out.
return {
  name = "Waiter",
  state = { bell = false, other = 0 },
  initial_goals = { "listen", "doze" },
  plans = {
    { on = "goal_added", goal = "listen",
      body = function(npc)
        local ev = npc:wait_event({ kind = "belief_added", name = "bell" }, 5)
        npc:print("heard", ev.kind, ev.name, ev.value, ev.old)
      end },
    { on = "goal_added", goal = "doze",
      body = function(npc)
        local ev, why = npc:wait_event(function(e) return e.name == "never" end, 0.5)
        npc:print("woke", ev, why)
      end },
  },
}
