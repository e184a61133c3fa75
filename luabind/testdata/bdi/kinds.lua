-- One plan per event kind; each prints what fired it.
return {
  name = "Kinds",
  state = { bell = false, light = "off" },
  plans = {
    { name = "added", on = "goal_added", goal = "job",
      body = function(npc, g) npc:print("goal_added", g) ; error("job cannot be done") end },
    { name = "failed", on = "goal_failed", goal = "job",
      body = function(npc, g) npc:print("goal_failed", g); return "recovered" end },
    { name = "removed", on = "goal_removed", goal = "job",
      body = function(npc, g) npc:print("goal_removed", g) end },
    { name = "bell on", on = "belief_added", belief = "bell",
      body = function(npc, b) npc:print("belief_added", b.name, b.value, b.old) end },
    { name = "bell off", on = "belief_removed", belief = "bell",
      body = function(npc, b) npc:print("belief_removed", b.name, b.value, b.old) end },
  },
  actions = {
    { name = "ring", pre = "!bell", effects = "bell = true",
      run = function(npc) npc.state.bell = true end },
  },
}
