-- Scenarios of the needs pattern; the second and fourth expect wrongly.
return {
  role = "../gate/needs.lua",
  tests = {
    { name = "hungry: farm, cook, eat", state = { hunger = 80 }, expect_plan = { "farm", "cook", "eat" } },
    { name = "hungry with food: eat", state = { hunger = 80, food = 1 }, expect_plan = { "cook", "eat" } },
    { name = "eat needs food", state = { hunger = 80 }, action = "eat", expect_why_not = "food > 0" },
    { name = "fed after a while", state = { hunger = 80 }, ticks = 40, expect_state = { hunger = 0 } },
  },
}
