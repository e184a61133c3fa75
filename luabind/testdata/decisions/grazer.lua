-- Issue 13.8: a pick record names each consideration's input, output and
-- weight.
return {
  name = "Grazer",
  decide = "utility",
  state = { hunger = 80 },
  actions = {
    { name = "eat",
      considerations = {
        { name = "hungry", input = "hunger", min = 0, max = 100 },
        { name = "worth", kind = "utility", weight = 2 },
      },
      utility = { value = 50, cost = 10 },
      run = function(npc) npc:wait(10) end },
  },
}
