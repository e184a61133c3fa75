-- Ten sensors that each spend about 320,000 work units every tick, and a
-- body that counts its resumes. Used by tick_budget_test.go.
return {
  name = "SlowSensors",
  state = { ran = 0, resumes = 0, done = false },
  goals = { { name = "g", condition = "done" } },
  sensors = {
    { name = "s0", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s1", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s2", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s3", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s4", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s5", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s6", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s7", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s8", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end },
    { name = "s9", run = function(npc) local x = 0; for i = 1, 160000 do x = x + i end; npc.state.ran = npc.state.ran + 1 end }
  },
  actions = {
    { name = "a", effects = "done = true",
      run = function(npc) while true do npc.state.resumes = npc.state.resumes + 1; coroutine.yield() end end },
  },
}
