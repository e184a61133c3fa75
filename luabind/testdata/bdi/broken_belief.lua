return {
  name = "BrokenBelief",
  state = { bell = false },
  plans = {
    
    
    
    { name = "unknown belief", on = "belief_added", belief = "bel", body = function() end },
  },
}
