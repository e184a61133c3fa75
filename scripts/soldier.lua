-- The Soldier: the TnsAI seed's role (goal "armed", actions fetchMagazine
-- and reload) plus attacking a visible enemy. A soldier shoots until its
-- magazine runs dry, fetches a magazine from the nearest crate, reloads and
-- shoots again.
--
-- The game writes these state variables every tick (sensors on the Go side):
--   enemy_visible  true when an enemy is in sight
--   enemy_health   the health of the current target (0 when there is none)
--   health         the soldier's own health
--
-- Host functions (npc:...) the game provides: move_to(x, y) walks there and
-- returns on arrival; nearest(kind) returns x, y of the nearest thing of a
-- kind; position() returns x, y; shoot() fires one round at the target.

return {
  name = "Soldier",

  state = {
    ammo = 0,
    magazines = 0,
    health = 100,
    enemy_visible = false,
    enemy_health = 0,
  },

  goals = {
    { name = "armed", condition = "ammo > 10", priority = "high" },
    { name = "enemy_down", condition = "enemy_health <= 0", priority = "normal" },
  },

  actions = {
    {
      name = "attack",
      pre = "enemy_visible && ammo > 0 && enemy_health > 0",
      effects = "ammo = 0, enemy_health = 0",
      fulfills = { "enemy_down" },
      cost = 1,
      utility = { cost = 10, value = 60, weight = 1.5, tags = { "combat" } },
      run = function(npc)
        -- Fire until the magazine is empty or the target is down or gone.
        while npc.state.ammo > 0 and npc.state.enemy_visible and npc.state.enemy_health > 0 do
          npc:shoot()
          npc.state.ammo = npc.state.ammo - 1
          npc:wait(0.2)
        end
      end,
    },
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
        npc.state.magazines = npc.state.magazines + 1
        npc:move_to(hx, hy)
      end,
    },
    {
      name = "reload",
      pre = "magazines > 0",
      effects = "ammo = 30, magazines = magazines - 1",
      fulfills = { "armed" },
      cost = 1,
      utility = { cost = 5, value = 50, tags = { "supply" } },
      run = function(npc)
        npc:wait(1.5)
        npc.state.ammo = 30
        npc.state.magazines = npc.state.magazines - 1
      end,
    },
  },
}
