-- Issue 13.4: Pray lists warm in fulfills; its effects say nothing of fire.
return {
  name = "Pilgrim",
  state = { wood = 0, fire = false, faith = 0 },
  goals = { { name = "warm", condition = "fire" } },
  actions = {
    { name = "Chop", effects = "wood = wood + 1", run = function(npc) npc.state.wood = npc.state.wood + 1 end },
    { name = "Light", pre = "wood >= 2", effects = "fire = true", run = function(npc) npc.state.fire = true end },
    { name = "Pray", effects = "faith = faith + 1", fulfills = "warm",
      run = function(npc) npc:wait(0.2); npc.state.faith = npc.state.faith + 1; npc.state.fire = true end },
  },
}
