return {
  name = "GoalReader",
  state = { wood = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" },
    { name = "warm", priority = "high",
      condition = "wood >= 2 && fire_lit" }, -- planted: "fire_lit", which no state variable
  },
  actions = {
    { name = "chop", effects = "wood = wood + 1", fulfills = { "stocked" } },
  },
}
