-- The only way to the goal never keeps its promise: the agent backs it
-- off again and again and is marked STUCK.
return {
  name = "Liar",
  state = { x = false },
  goals = { { name = "x", condition = "x" } },
  actions = {
    { name = "pretend", effects = "x = true", run = function(npc) end },
  },
}
