-- Issue 13.8: steps that cost 0.1 and 0.2 make a plan of cost 0.3, printed
-- so (the float sum is 0.30000000000000004).
return {
  name = "Walker",
  state = { at_door = false, out = false },
  goals = { { name = "leave", condition = "out" } },
  actions = {
    { name = "ToDoor", cost = 0.1, effects = "at_door = true", run = function(npc) npc.state.at_door = true end },
    { name = "Open", cost = 0.2, pre = "at_door", effects = "out = true", run = function(npc) npc.state.out = true end },
  },
}
