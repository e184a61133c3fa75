-- A role whose body asks the host where food is.
return {
  name = "Forager",
  state = { food_x = 0 },
  goals = { { name = "found", condition = "food_x > 0" } },
  actions = {
    { name = "look", fulfills = { "found" },
      run = function(npc)
        local x = npc:nearest("food")
        npc.state.food_x = x
      end },
  },
}
