return {
  name = "Broken",
  state = { wood = 0 },
  goals = {
    { name = "stocked", condition = "wood >= 2" } -- planted: is a comma missing at the end of line 5
    { name = "chop", effects = "wood = wood + 1" },
  },
}
