-- Issue 13.8: traces a designer can read. Steps that cost 0.1 and 0.2 make a
-- plan of cost 0.3 (not 0.30000000000000004); the pick record of the
-- utility role below carries its considerations.
return {
  name = "Walker",
  state = { at_door = false, out = false },
  goals = { { name = "leave", condition = "out" } },
  actions = {
    { name = "ToDoor", cost = 0.1, effects = "at_door = true",
      run = function(npc) npc:wait(0.3); npc.state.at_door = true end },
    { name = "Open", cost = 0.2, pre = "at_door", effects = "out = true",
      run = function(npc) npc:wait(0.2); npc.state.out = true end },
  },
}
