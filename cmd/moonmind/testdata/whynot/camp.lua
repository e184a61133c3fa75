-- A role for `moonmind why-not`: each action is left out of the plan for
-- one reason of its own.
return {
  name = "Camper",
  decide = "goap",
  state = { wood = 0, fire = false, gold = 5, songs = 0 },
  goals = {
    { name = "warm", condition = "fire", priority = "high" },
    { name = "rich", condition = "gold >= 5" },
  },
  actions = {
    -- the cheapest way to 3 wood: three of these
    { name = "gather", effects = "wood = wood + 1", cost = 1 },
    -- as cheap as gather, declared after it: it loses the tie
    { name = "forage", effects = "wood = wood + 1", cost = 1 },
    -- 3 wood at once, but dearer than three gathers
    { name = "buyWood", pre = "gold >= 3", effects = "wood = wood + 3, gold = gold - 3", cost = 5 },
    { name = "light", pre = "wood >= 3", effects = "fire = true", fulfills = { "warm" } },
    -- serves "rich", which holds already
    { name = "mine", effects = "gold = gold + 1", cost = 2 },
    -- never run, and its precondition fails too
    { name = "burnGold", pre = "gold >= 100 && !fire", effects = "fire = true", fulfills = { "warm" }, restricted = true },
    -- changes nothing a goal reads
    { name = "sing", effects = "songs = songs + 1" },
  },
}
