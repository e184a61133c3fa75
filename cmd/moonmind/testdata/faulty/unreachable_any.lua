return {
  name = "Seedless",
  state = { hunger = 0, food = 0, seeds = 0 },
  sensors = {
    { name = "stomach", every = 1, run = function(npc) npc.state.hunger = npc.state.hunger + 10 end },
  },
  goals = {
    { name = "fed",
      condition = "hunger < 50" }, -- planted: no chain of actions reaches it from any state the role can be in
  },
  actions = {
    { name = "grow", pre = "seeds > 0", effects = "food = food + 1, seeds = seeds + 1" },
    { name = "eat", pre = "food > 0", effects = "hunger = 0, food = food - 1" },
  },
}
