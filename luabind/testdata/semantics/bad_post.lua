-- post in the wrong form, both ways.
return {
  name = "Drafter",
  state = { UserInput = true },
  conditions = { { name = "ok", test = function(npc) return true end } },
  actions = {
    { name = "draft", inputs = { "UserInput" }, output = "Draft", post = "ok", run = function(npc) end },
    { name = "mark", post = { "ok", "Marked = true" }, run = function(npc) end },
  },
}
