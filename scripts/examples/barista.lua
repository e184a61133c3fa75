-- JaKtA's barista example: preparing a coffee fails without beans; the
-- failure plan buys beans and prepares it again, and the cup it returns
-- completes the goal that failed.
--   go run ./cmd/moonmind run scripts/examples/barista.lua --ticks 10
local mm = require("moonmind")

return mm.role {
  name = "Barista",
  state = { beans = false, cups = 0 },
  initial_goals = { "open" },
  plans = mm.plans(require("coffee_plans"), {
    { name = "open", on = "goal_added", goal = "open",
      body = function(npc)
        local cup = npc:achieve_with_result({ "prepare", "espresso" })
        npc:print("served a", cup)
        npc.state.cups = npc.state.cups + 1
      end },
  }),
}
