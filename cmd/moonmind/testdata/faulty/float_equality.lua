return {
  name = "Brewer",
  state = { mix = 0 },
  goals = {
    { name = "brewed", condition = "mix == 0.3" }, -- planted: mix == 0.3 compares exactly with a number that action "stir" changes by a fractional step
  },
  actions = {
    { name = "stir", effects = "mix = mix + 0.1" },
  },
}
