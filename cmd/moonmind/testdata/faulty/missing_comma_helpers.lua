local mm = require("moonmind")
return mm.role {
  name = "HelperShop",
  state = { stock = 0, gold = 10 },
  goals = {
    mm.goal("stocked", "stock >= 3"),
  },
  actions = {
    mm.action("buy", {
      pre = "gold >= 5",
      effects = "stock = stock + 3, gold = gold - 5",
      cost = 2 -- planted: is a comma missing at the end of line 12
      utility = { tags = { "supply" } },
    }),
  },
}
