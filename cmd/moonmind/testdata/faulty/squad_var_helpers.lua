-- With the mm.* helpers: a body writes a squad variable the role's squad
-- table does not declare.
local mm = require("moonmind")
return mm.role {
  name = "Squaddie",
  state = { done = false },
  squad = { enemy_seen = false },
  goals = { { name = "watch", condition = "done" } },
  actions = {
    { name = "look", effects = "done = true", run = function(npc)
        npc.squad.enemy_sen = true -- planted: writes npc.squad.enemy_sen, which the role's state does not declare (did you mean "squad.enemy_seen"?)
        npc.state.done = true
      end },
  },
}
