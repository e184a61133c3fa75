-- With the mm.* helpers: a body writes a squad variable the role's squad
-- table does not declare.
local mm = require("moonmind")
return mm.role {
  name = "Squaddie",
  state = { done = false },
  squad = { enemy_seen = false },
  goals = { { name = "watch", condition = "done" } },
  actions = {
    { name = "look", effects = "done = true", run = function(npc) -- planted: npc.squad.enemy_sen is not a squad variable the role declares
        npc.squad.enemy_sen = true
        npc.state.done = true
      end },
  },
}
