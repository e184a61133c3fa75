-- A soldier that heals at a medic, a smart object with two slots, by
-- utility: heal is picked only while a slot of the medic is free.
return {
  name = "Patient",
  decide = "utility",
  state = { health = 40 },
  objects = { { name = "medic_blue", kind = "medic", slots = 2 } },
  actions = {
    { name = "heal", uses = "medic", pre = "health < 100", effects = "health = 100",
      utility = { value = 1 } },
  },
}
