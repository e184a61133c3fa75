-- npc:wait in a sensor: a sensor is a plain call, not a coroutine.
return {
  name = "WaitInSensor",
  state = { seen = 0 },
  sensors = {
    {
      name = "patient",
      run = function(npc)
        npc:wait(1)
      end,
    },
  },
}
