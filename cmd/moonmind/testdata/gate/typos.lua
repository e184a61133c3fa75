-- Two misspelt state variables in bodies: enrgy (read) and hungr (written).
return {
  name = "Farmer",
  state = { hunger = 80, food = 0, crops = 0 },
  sensors = {
    { name = "stomach", every = 1, run = function(npc)
        npc.state.hunger = npc.state.hunger + 10
      end },
  },
  goals = {
    { name = "fed", condition = "hunger < 50", priority = "high" },
  },
  actions = {
    { name = "farm", effects = "crops = crops + 1", cost = 2,
      run = function(npc) npc:wait(1); npc.state.crops = npc.state.crops + npc.state.enrgy end },
    { name = "cook", pre = "crops > 0", effects = "food = food + 1, crops = crops - 1",
      run = function(npc) npc:wait(1); npc.state.food = npc.state.food + 1; npc.state.crops = npc.state.crops - 1 end },
    { name = "eat", pre = "food > 0", effects = "hunger = 0, food = food - 1",
      run = function(npc) npc.state.hungr = 0; npc.state.food = npc.state.food - 1 end },
  },
}
