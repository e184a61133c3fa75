-- With the mm.* helpers: a misspelt effect target in the second action,
-- placed at its effects field.
local mm = require("moonmind")
return mm.role {
  name = "HelperShopkeeper",
  state = { shop_open = false, lights_on = false },
  goals = {
    mm.goal("trading", "shop_open && lights_on"),
  },
  actions = {
    mm.action("switch_on", {
      effects = "lights_on = true",
      run = function(npc) npc.state.lights_on = true end,
    }),
    mm.action("open_shop", {
      pre = "lights_on",
      effects = "shop_opend = true", -- planted: assigns shop_opend, which the role's state does not declare and no body, sensor or reactive plan writes: the promise is never kept, and every run of the action reports it unmet (did you mean "shop_open"?)
      fulfills = { "trading" },
      run = function(npc) npc.state.shop_open = true end,
    }),
  },
}
