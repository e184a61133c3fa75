-- Ping serves a ball to its partner and returns every ball it gets back,
-- with the next number, until 12. Run it with its partner:
--   go run ./cmd/moonmind run scripts/examples/ping.lua scripts/examples/pong.lua --ticks 20
local mm = require("moonmind")

return mm.role {
  name = "Ping",
  state = { ball = 0, partner = "Pong" },
  initial_goals = { "serve" },
  plans = {
    { name = "serve", on = "goal_added", goal = "serve",
      body = function(npc) npc:tell(npc.state.partner, "ball", 1) end },
    -- Specific first: this plan applies while the rally goes on ...
    { name = "return", on = "belief_added", belief = "ball",
      guard = function(ball) if ball.value < 12 then return ball end end,
      body = function(npc, ball)
        npc:print("ping", ball.value)
        npc:tell(ball.from, "ball", ball.value + 1)
      end },
    -- ... and this one takes the last ball.
    { name = "last", on = "belief_added", belief = "ball",
      body = function(npc, ball) npc:print("game over at", ball.value) end },
  },
}
