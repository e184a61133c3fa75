-- Considerations that fail: each scores 0 and is recorded, none stops the tick.
return {
  name = "Faulty",
  decide = "utility",
  state = { x = 1 },
  actions = {
    { name = "raises", considerations = { function(action, state) error("no luck") end } },
    { name = "string", considerations = { { name = "words", fn = function(action, state) return "high" end } } },
    { name = "writes", considerations = { function(action, state) state.x = 2; return 1 end } },
    { name = "loops", considerations = { function(action, state) while true do end end } },
    { name = "fine", considerations = { function(action, state) return state.x / 10 end } },
  },
}
