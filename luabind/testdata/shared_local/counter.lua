local count = 0
local seen = {}
return {
  name = "Counter",
  state = { n = 0, m = 0 },
  decide = "utility",
  actions = { { name = "inc", effects = "n = n + 1", run = function(npc)
      count = count + 1
      seen[#seen + 1] = npc.name
      npc.state.n = count
      npc.state.m = #seen
    end } },
}
