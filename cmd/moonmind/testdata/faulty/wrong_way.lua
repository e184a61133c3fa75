return {
  name = "Spender",
  state = { gold = 0 },
  goals = {
    { name = "rich", condition = "gold >= 10" }, -- planted: gold >= 10 needs gold to move, and no action's effect raises it
  },
  actions = {
    { name = "spend", effects = "gold = gold - 1" },
  },
}
