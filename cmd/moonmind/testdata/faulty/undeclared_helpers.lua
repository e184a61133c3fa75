-- With the mm.* helpers: the problem is placed at the second action's
-- field, not at the first action or the actions list.
local mm = require("moonmind")
return mm.role {
  name = "HelperReader",
  state = { wood = 0, stone = 0 },
  goals = {
    mm.goal("stocked", "wood >= 2 && stone >= 1"),
  },
  actions = {
    mm.action("chop", {
      pre = "wood < 5",
      effects = "wood = wood + 1",
    }),
    mm.action("quarry", {
      pre = "has_pick", -- planted: "has_pick", which no state variable
      effects = "stone = stone + 1",
    }),
  },
}
