-- The demo's soldier: soldier.lua (goal "armed", attack, takeCover,
-- retreat, the supply actions) on a battlefield with walls, crates that
-- run empty and a medic whose supply runs out. This role extends it: the
-- parent's state, goals and actions come first, and these win by name.
--
-- The game (demo/sim) writes these state variables every tick, besides
-- soldier.lua's:
--   heard_shot      true for 2 s after it heard an enemy shot nearby
--   heard_x/heard_y where that shot came from, in pixels
--   crate_empty     true when the crate nearest to it has no magazine left
--   medic           health its team's medic at the rally point can still give
-- and provides these host functions, besides soldier.lua's: advance(seconds)
-- walks towards the enemy, around the walls, until one is in sight (or the
-- seconds pass); take_magazine() takes a magazine from the crate the
-- soldier stands at and returns false when it is empty.
--
-- enemy_visible stays true for 3 s after the target went out of sight, so
-- ducking behind a wall does not end a fight at once.

return {
  name = "SquadSoldier",
  extends = "soldier",

  state = {
    heard_shot = false,
    heard_x = 0,
    heard_y = 0,
    crate_empty = false,
    medic = 100,
  },

  actions = {
    -- As in soldier.lua, but the crate can be empty: then the step fails
    -- and the soldier plans again (nearest("ammo_crate") prefers a crate
    -- with magazines left).
    {
      name = "fetchMagazine",
      effects = "magazines = magazines + 1",
      cost = 2,
      utility = { cost = 20, value = 30, tags = { "supply" } },
      run = function(npc)
        local hx, hy = npc:position()
        local cx, cy = npc:nearest("ammo_crate")
        npc:move_to(cx, cy)
        npc:wait(0.5)
        if not npc:take_magazine() then
          return false, "the crate is empty"
        end
        npc.state.magazines = npc.state.magazines + 1
        npc:move_to(hx, hy) -- back to where it was (its cover, say)
      end,
    },
    -- As in soldier.lua, but only while the medic at the rally point has
    -- something left to give: with the medic spent, a badly hurt soldier
    -- fights on (takeCover or attack) instead of running back and forth.
    {
      name = "retreat",
      pre = "enemy_visible && enemy_health > 0",
      utility = { tags = { "combat" } },
      considerations = {
        { name = "badly hurt", input = "health", min = 100, max = 0, curve = "logistic", slope = 14, offset = 0.75 },
        { name = "medic has supply", input = "medic", min = 0, max = 20, curve = "linear" },
      },
      run = function(npc)
        local x, y = npc:nearest("rally")
        npc:move_to(x, y)
        npc:wait(3)
      end,
    },
    {
      -- With nobody in sight, move up: walk towards the enemy until one
      -- shows, or for 2 s, then choose again.
      name = "advance",
      pre = "!enemy_visible",
      utility = { tags = { "combat" } },
      considerations = {
        -- Only a soldier fit to fight moves up; a hurt one regroups.
        { name = "fit to fight", input = "health", min = 0, max = 100, curve = "logistic", slope = 12, offset = 0.5 },
      },
      run = function(npc)
        npc:advance(2)
      end,
    },
    {
      -- With nobody in sight and hurt: back to the rally point, where the
      -- medic heals, while the medic has something left to give.
      name = "regroup",
      pre = "!enemy_visible && health < 100",
      utility = { tags = { "combat" } },
      considerations = {
        { name = "hurt", input = "health", min = 100, max = 0, curve = "logistic", slope = 12, offset = 0.5 },
        { name = "medic has supply", input = "medic", min = 0, max = 20, curve = "linear" },
      },
      run = function(npc)
        local x, y = npc:nearest("rally")
        npc:move_to(x, y)
        npc:wait(2)
      end,
    },
  },
}
