-- Another role file that requires the same module: it gets its own copy,
-- so it cannot find what the victim's role put there, nor patch it.
local registry = require("registry")
return {
  name = "Thief",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "steal",
      effects = "done = true",
      run = function(npc)
        npc:wait(0.1)
        npc:print("the registry holds " .. tostring(registry.get("co")))
        registry.put = function() end
      end,
    },
  },
}
