-- A body reads a squad variable the role's squad table does not declare:
-- the read fails with an error each time the body runs.
return {
  name = "Lookout",
  state = { done = false },
  squad = { enemy_seen = false, enemy_x = 0 },
  goals = {
    { name = "watch", condition = "done" },
  },
  actions = {
    { name = "look", effects = "done = true",
      run = function(npc)
        if npc.squad.enemy_y then npc.state.done = true end -- planted: reads npc.squad.enemy_y, which the role's state does not declare (did you mean "squad.enemy_x"?)
        npc.state.done = true
      end },
  },
}
