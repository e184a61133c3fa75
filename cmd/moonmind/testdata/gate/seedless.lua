-- A farmer who starts fed but has no seeds: farming needs seeds, and only
-- saving seeds from a crop makes them. Once the sensor makes it hungry,
-- nothing can feed it.
return {
  name = "Farmer",
  state = { hunger = 0, food = 0, crops = 0, seeds = 0 },
  sensors = {
    { name = "stomach", every = 1, run = function(npc)
        npc.state.hunger = npc.state.hunger + 10
      end },
  },
  goals = {
    { name = "fed", condition = "hunger < 50", priority = "high" },
  },
  actions = {
    { name = "farm", pre = "seeds > 0", effects = "crops = crops + 2, seeds = seeds - 1" },
    { name = "save_seeds", pre = "crops > 0", effects = "seeds = seeds + 2, crops = crops - 1" },
    { name = "cook", pre = "crops > 0", effects = "food = food + 1, crops = crops - 1" },
    { name = "eat", pre = "food > 0", effects = "hunger = 0, food = food - 1" },
  },
}
