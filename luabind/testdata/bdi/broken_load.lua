return {
  name = "Broken",
  state = { bell = false },
  plans = {
    { name = "typo", on = "goal_addded", body = function() end },
    { name = "mixed", on = "belief_added", goal = "bell", body = function() end },
    { name = "no body", on = "goal_added", body = "run" },
    { name = "unknown belief", on = "belief_added", belief = "bel", body = function() end },
  },
}
