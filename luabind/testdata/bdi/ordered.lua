local mm = require("moonmind")
local specific = require("bdi_specific")
return {
  name = "Ordered",
  state = {},
  plans = mm.plans(specific, {
    { name = "catch-all", on = "goal_added", body = function(npc, g) npc:print("catch-all", g) end },
  }),
}
