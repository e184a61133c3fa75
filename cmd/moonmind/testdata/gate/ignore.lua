-- A sensor that sets what hide promises, silenced by name with a reason;
-- and a stale name that silences nothing.
return {
  name = "Sentry",
  check_ignore = { ["sensor-write:in_cover"] = "cover is re-checked every half second; a late hide is fine", "unused-action:ghost" },
  state = { in_cover = false, exposed = true },
  sensors = {
    { name = "cover", every = 0.5, run = function(npc)
        npc.state.in_cover = not npc.state.exposed
      end },
  },
  goals = {
    { name = "covered", condition = "in_cover" },
  },
  actions = {
    { name = "hide",
      effects = "in_cover = true", -- planted: promises in_cover, which sensor "cover" also writes
      fulfills = { "covered" } },
  },
}
