-- A misspelt effect target: the state declares shop_open, the effect
-- promises shop_opened, which nothing ever writes.
return {
  name = "Shopkeeper",
  state = { shop_open = false, stock = 3 },
  goals = {
    { name = "trading", condition = "shop_open" },
  },
  actions = {
    { name = "open_shop",
      effects = "shop_opened = true", -- planted: assigns shop_opened, which the role's state does not declare and no body, sensor or reactive plan writes: the promise is never kept, and every run of the action reports it unmet (did you mean "shop_open"?)
      fulfills = { "trading" },
      run = function(npc)
        npc.state.shop_open = true
      end },
  },
}
