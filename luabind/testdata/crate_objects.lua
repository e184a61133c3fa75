-- Two crates declared with the role: each offers a slot while it has a
-- magazine left; the game takes magazines out of its data.
local mm = require("moonmind")

return mm.role {
  name = "Stocked",
  extends = "crate_user",
  objects = {
    { name = "near", kind = "crate", data = { magazines = 1, x = 10 },
      offers = function(data) return data.magazines > 0 end },
    { name = "far", kind = "crate", slots = 2, data = { magazines = 5, x = 90 },
      offers = function(data) return data.magazines end },
    { name = "medic", kind = "medic", slots = 3 },
  },
}
