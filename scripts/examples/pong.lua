-- Pong returns every ball Ping tells it, with the next number.
local mm = require("moonmind")

return mm.role {
  name = "Pong",
  state = { ball = 0 },
  plans = {
    { name = "return", on = "belief_added", belief = "ball",
      body = function(npc, ball)
        npc:print("pong", ball.value)
        npc:tell(ball.from, "ball", ball.value + 1)
      end },
  },
}
