-- Issue 13.2: the whole plan is watched. The game closes the front door
-- while the key is fetched; the back door is the other way.
return {
  name = "Burglar",
  state = { inside = false, has_key = false, front_open = true, back_open = true, interrupted = 0 },
  goals = { { name = "in", condition = "inside" } },
  actions = {
    { name = "FetchKey", effects = "has_key = true",
      run = function(npc) npc:wait(0.4); npc.state.has_key = true end,
      on_interrupt = function(npc) npc.state.interrupted = npc.state.interrupted + 1 end },
    { name = "UseFront", pre = "has_key && front_open", effects = "inside = true",
      run = function(npc) npc.state.inside = true end },
    { name = "UseBack", pre = "has_key && back_open", effects = "inside = true", cost = 3,
      run = function(npc) npc.state.inside = true end },
  },
}
