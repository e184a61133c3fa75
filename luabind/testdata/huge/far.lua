-- math.huge reads like infinity, but gopher-lua's is the largest float
-- (about 1.8e308), which state refuses like any number past 2^53.
return {
  name = "Far",
  state = { reach = math.huge, n = 0 },
  goals = { { name = "g", condition = "n >= 1" } },
  actions = { { name = "a", effects = "n = n + 1", run = function(npc) npc.state.n = 1 end } },
}
