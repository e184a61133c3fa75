-- Issue 13.5: a sensor that sums its dt reads the time played.
return {
  name = "Clock",
  state = { played = 0, looked = 0 },
  sensors = {
    { name = "tick", every = 0, run = function(npc, dt) npc.state.played = npc.state.played + dt end },
    { name = "look", every = 0.5, run = function(npc, dt) npc.state.looked = npc.state.looked + dt end },
  },
}
