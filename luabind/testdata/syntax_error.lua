return {
  name = "Broken",
  actions = {
    { name = "a" run = function(npc) end },
  },
}
