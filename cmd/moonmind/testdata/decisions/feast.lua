-- Issue 13.6: utility() is the seed's (value - cost + 100) / 200, unclamped.
return {
  name = "Glutton",
  decide = "utility",
  considerations = { "utility" },
  state = { hungry = true },
  actions = {
    { name = "feast", utility = { value = 300, cost = 0 }, run = function(npc) end },
    { name = "snack", utility = { value = 80, cost = 20 }, run = function(npc) end },
  },
}
