return {
  name = "Dice",
  state = { roll = 0, rolls = 0, frac = 0 },
  goals = { { name = "many", condition = "rolls >= 5" } },
  actions = {
    { name = "roll", effects = "rolls = rolls + 1", run = function(npc)
        npc.state.roll = npc.state.roll * 1000 + math.random(1, 100)
        npc.state.frac = math.random()
        npc.state.rolls = npc.state.rolls + 1
      end },
  },
}
