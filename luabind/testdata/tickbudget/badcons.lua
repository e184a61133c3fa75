-- Consideration functions that fail: one writes the state (refused in a
-- consideration), three return non-finite numbers. Used by
-- tick_budget_test.go.
return {
  name = "BadConsiderations", decide = "utility",
  state = { x = 1 },
  actions = {
    { name = "writes", considerations = { function(a, s) s.x = 5; return 1 end }, run = function(npc) npc:wait(0.1) end },
    { name = "huge", considerations = { function(a, s) return math.huge end }, run = function(npc) npc:wait(0.1) end },
    { name = "inf", considerations = { function(a, s) return 1/0 end }, run = function(npc) npc:wait(0.1) end },
    { name = "nan", considerations = { function(a, s) return 0/0 end }, run = function(npc) npc:wait(0.1) end },
    { name = "fine", considerations = { function(a, s) return 0.1 end }, run = function(npc) npc:wait(0.1) end },
  },
}
