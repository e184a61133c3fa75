-- A squad member: its body prints what it reads of the squad's board every
-- tick; the spotter writes the enemy's position to it once. A reactive plan
-- reacts to the squad learning of an enemy.
local mm = require("moonmind")

return mm.role {
  name = "Squaddie",
  state = { done = false, spotter = false },
  squad = { enemy_seen = false, enemy_x = 0 },
  goals = { { name = "watch", condition = "done" } },
  actions = {
    { name = "look", effects = "done = true", run = function(npc)
        while true do
          npc:print("reads enemy_x=" .. tostring(npc.squad.enemy_x))
          if npc.state.spotter and not npc.squad.enemy_seen then
            npc.squad.enemy_x = 7
            npc.squad.enemy_seen = true
          end
          npc:wait(0.1)
        end
      end },
  },
  plans = {
    { on = "belief_added", belief = "squad.enemy_seen",
      guard = function(ctx, npc) if npc.state["squad.enemy_seen"] then return ctx end end,
      body = function(npc) npc:print("alerted, enemy at " .. tostring(npc.squad.enemy_x)) end },
  },
}
