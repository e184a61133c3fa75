-- Issue 13.3: armed has no plan, since no crate is in reach and so no
-- magazine; rest has one. moonmind plan prints both, and names the action
-- whose precondition blocks the chain.
return {
  name = "Rifleman",
  state = { ammo = 0, magazines = 0, at_crate = false, rested = false },
  goals = {
    { name = "armed", condition = "ammo > 10", priority = "high" },
    { name = "rest", condition = "rested" },
  },
  actions = {
    { name = "reload", pre = "magazines > 0", effects = "ammo = ammo + 30, magazines = magazines - 1", run = function(npc) end },
    { name = "fetchMagazine", pre = "at_crate", effects = "magazines = magazines + 1", run = function(npc) end },
    { name = "sit", effects = "rested = true", run = function(npc) npc.state.rested = true end },
  },
}
