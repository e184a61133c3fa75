-- Prints 100,000 bytes in one npc:print.
return {
  name = "Talker",
  state = { done = false },
  goals = { { name = "said", condition = "done == true" } },
  actions = { { name = "say", effects = "done = true", fulfills = { "said" }, run = function(npc)
    npc:print(string.rep("x", 100000))
    npc.state.done = true
  end } },
}
