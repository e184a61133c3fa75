-- Issue 13.6: the seed's formulas as the seed writes them, unclamped:
-- utility() = (value - cost + 100) / 200, cost() = max(0, 1 - cost/100),
-- value() = min(1, value/100).
return {
  name = "Banquet",
  decide = "utility",
  state = { hungry = true },
  actions = {
    { name = "feast", considerations = { { kind = "utility" } }, utility = { value = 300, cost = 0 }, run = function(npc) end },
    { name = "bribe", considerations = { { kind = "cost" } }, utility = { value = 0, cost = -50 }, run = function(npc) end },
    { name = "snack", considerations = { { kind = "utility" } }, utility = { value = 80, cost = 20 }, run = function(npc) end },
    { name = "sulk", considerations = { { kind = "value" } }, utility = { value = -50, cost = 0 }, run = function(npc) end },
  },
}
