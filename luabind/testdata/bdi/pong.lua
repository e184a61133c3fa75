return {
  name = "Pong",
  state = { ball = 0 },
  plans = {
    { on = "belief_added", belief = "ball",
      body = function(npc, b)
        npc:print("pong", b.value)
        npc:tell(b.from, "ball", b.value + 1)
      end },
  },
}
