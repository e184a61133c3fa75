-- Library order decides: the catch-all placed first shadows the specific
-- plans of the libraries after it.
local mm = require("moonmind")
local catch_all = { { name = "catch-all", on = "goal_added", body = function(npc, g) npc:print("catch-all", g) end } }
local specific = require("bdi_specific")
return {
  name = "Shadow",
  state = {},
  plans = mm.plans(catch_all, specific),
}
