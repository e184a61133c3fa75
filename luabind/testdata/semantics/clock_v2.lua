-- The clock of testdata/decisions/clock.lua with one more sensor, for the
-- reload test: the kept sensors keep their timers, the new one starts.
return {
  name = "Clock",
  state = { played = 0, looked = 0, fresh = 0 },
  sensors = {
    { name = "tick", every = 0, run = function(npc, dt) npc.state.played = npc.state.played + dt end },
    { name = "look", every = 0.5, run = function(npc, dt) npc.state.looked = npc.state.looked + dt end },
    { name = "fresh", every = 0, run = function(npc, dt) npc.state.fresh = npc.state.fresh + dt end },
  },
}
