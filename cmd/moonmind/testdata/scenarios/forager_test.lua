-- The training ground puts every nearest thing at (100, 0); host answers
-- replace it.
return {
  role = "forager.lua",
  tests = {
    { name = "the training ground's answer", ticks = 3, expect_state = { food_x = 100 } },
    { name = "a host answer", ticks = 3, host = { nearest = { 40, 0 } }, expect_state = { food_x = 40 } },
  },
}
