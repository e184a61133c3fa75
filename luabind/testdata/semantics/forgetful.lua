-- A typed pipeline whose middle body forgets to store its output.
return {
  name = "Forgetful",
  state = { UserInput = true },
  actions = {
    { name = "research", inputs = { "UserInput" }, output = "Notes",
      run = function(npc) npc.facts.Notes = { "n1" } end },
    { name = "summarize", inputs = { "Notes" }, output = "Summary", achieves_goal = "summary",
      run = function(npc) local s = { npc.facts.Notes[1] } end },
  },
}
