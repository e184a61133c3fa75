local mm = require("moonmind")
return mm.role {
  name = "HelperSleeper",
  decide = "hybrid",
  state = { tired = 0, crops = 0 },
  actions = {
    mm.action("work", { effects = "crops = crops + 1" }),
    mm.action("rest", { pre = "tired > 0", effects = "tired = tired - 1" }), -- planted: can never run
  },
}
