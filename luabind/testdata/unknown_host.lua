-- A shopkeeper that calls npc:sell(), a host method the game may not provide.
return {
  name = "Seller",
  state = { sold = false },
  goals = { { name = "sold", condition = "sold" } },
  actions = {
    { name = "sell", effects = "sold = true",
      run = function(npc)
        npc:sell("bread")
        npc.state.sold = true
      end },
  },
}
