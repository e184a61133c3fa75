return {
  name = "Quiet",
  quiet_beliefs = true,
  state = { noise = 0, bell = false },
  plans = {
    { on = "belief_added", belief = "bell", body = function(npc) npc:print("ding") end },
  },
}
