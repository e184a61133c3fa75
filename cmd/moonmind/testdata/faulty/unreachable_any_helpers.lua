local mm = require("moonmind")
return mm.role {
  name = "HelperSeedless",
  state = { hunger = 0, food = 0, seeds = 0 },
  sensors = {
    mm.sensor("stomach", 1, function(npc) npc.state.hunger = npc.state.hunger + 10 end),
  },
  goals = {
    mm.goal("fed", "hunger < 50"), -- planted: no chain of actions reaches it from any state the role can be in
  },
  actions = {
    mm.action("grow", { pre = "seeds > 0", effects = "food = food + 1, seeds = seeds + 1" }),
    mm.action("eat", { pre = "food > 0", effects = "hunger = 0, food = food - 1" }),
  },
}
