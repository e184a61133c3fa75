-- Ping and pong through tell: each side answers the other's ball with the
-- next number until round 6.
return {
  name = "Ping",
  state = { ball = 0, partner = "Pong" },
  initial_goals = { "serve" },
  plans = {
    { on = "goal_added", goal = "serve",
      body = function(npc) npc:tell(npc.state.partner, "ball", 1) end },
    { name = "return", on = "belief_added", belief = "ball",
      guard = function(b) if b.value < 12 then return b end end,
      body = function(npc, b)
        npc:print("ping", b.value, "from", b.from)
        npc:tell(b.from, "ball", b.value + 1)
      end },
    { name = "last", on = "belief_added", belief = "ball",
      body = function(npc, b) npc:print("game over at", b.value) end },
  },
}
