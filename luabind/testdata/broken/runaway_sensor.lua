-- A sensor that never returns is stopped by the budget.
return {
  name = "RunawaySensor",
  state = { seen = 0 },
  sensors = {
    {
      name = "stare",
      run = function(npc)
        while npc.state.seen >= 0 do
          npc.state.seen = npc.state.seen + 1
        end
      end,
    },
  },
}
