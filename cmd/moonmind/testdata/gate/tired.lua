-- A farmer who picks what to do by utility. Nothing ever makes it tired,
-- so it never rests; the game ripens the crops (nothing in the role
-- writes crops_ripe), so harvesting can run.
return {
  name = "Farmer",
  decide = "utility",
  state = { tired = 0, crops_ripe = false, crops = 0 },
  actions = {
    { name = "harvest", pre = "crops_ripe", effects = "crops = crops + 1",
      utility = { value = 40 } },
    { name = "rest", pre = "tired > 0", effects = "tired = tired - 1",
      utility = { value = 30 } },
  },
}
