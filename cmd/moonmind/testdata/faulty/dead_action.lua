return {
  name = "Sleeper",
  decide = "utility",
  state = { tired = 0, crops = 0 },
  actions = {
    { name = "work", effects = "crops = crops + 1", utility = { value = 40 } },
    { name = "rest",
      pre = "tired > 0", -- planted: can never run
      effects = "tired = tired - 1", utility = { value = 30 } },
  },
}
