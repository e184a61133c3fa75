-- Ten actions whose consideration function each spends about 320,000
-- work units. Used by tick_budget_test.go.
return {
  name = "SlowConsiderations", decide = "utility",
  state = { x = 0 },
  actions = {
    { name = "a0", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a1", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a2", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a3", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a4", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a5", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a6", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a7", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a8", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end },
    { name = "a9", considerations = { function(a, s) local x = 0; for i = 1, 160000 do x = x + i end; return 0.5 end }, run = function(npc) npc:wait(0.05) end }
  },
}
