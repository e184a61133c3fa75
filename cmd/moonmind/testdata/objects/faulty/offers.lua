-- crate1's offers function fails on its own data.
return {
  name = "BadOffer",
  state = { magazines = 0 },
  goals = { { name = "armed", condition = "magazines > 0" } },
  objects = {
    { name = "crate1", kind = "crate", data = { magazines = 1 },
      offers = function(data) return data.magazine > 0 end },
  },
  actions = {
    { name = "fetch", uses = "crate", effects = "magazines = magazines + 1" },
  },
}
