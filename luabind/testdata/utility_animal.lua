-- A grazing animal decides with response curves: eat when hungry, flee
-- when danger is high, rest otherwise. Used by luabind's load_consider_test.go.
return {
  name = "Animal",
  decide = "utility",
  utility_mode = "multiply",
  state = { hunger = 40, danger = 0, health = 100, food_near = true },

  -- Actions without their own considerations use these.
  considerations = {
    "value(0.5)",
    { kind = "cost", weight = 0.3, curve = "polynomial", exponent = 2 },
  },

  actions = {
    {
      name = "eat",
      pre = "food_near",
      considerations = {
        { input = "hunger", min = 0, max = 100, curve = "logistic", slope = 10, offset = 0.5 },
        { input = "danger", min = 1, max = 0, curve = "linear" },
        { kind = "hasTag", tag = "food" },
      },
      utility = { cost = 0, value = 50, tags = { "food" } },
    },
    {
      name = "flee",
      considerations = {
        { input = "danger", min = 0, max = 1, curve = "step", offset = 0.3 },
      },
    },
    { name = "rest", utility = { cost = 0, value = 20 } },
  },
}
