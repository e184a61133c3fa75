-- A runtime error in a sensor is recorded; the tick goes on.
return {
  name = "SensorError",
  state = { seen = 0 },
  sensors = {
    {
      name = "eyes",
      every = 0.5,
      run = function(npc)
        npc.state.seen = npc.state.seen + nil
      end,
    },
  },
}
