-- The Soldier: TnsAI's example role (goal "armed", actions fetchMagazine
-- and reload) plus a fight. It decides with both of moonmind's planners:
--
--   * Supply is a goal. The GOAP planner keeps the soldier "armed": with 10
--     rounds or fewer it fetches a magazine from the nearest crate and
--     reloads, whatever else is going on.
--   * Combat is a choice. When the soldier is armed and sees an enemy, the
--     utility planner scores attack, takeCover and retreat from its health,
--     its ammo and the enemy's distance, and runs the best one.
--
-- The game writes these state variables every tick (sensors on the Go side):
--   enemy_visible   true when an enemy is in sight
--   enemy_health    the health of the current target (0 when there is none)
--   enemy_distance  how far the target is, in pixels
--   in_cover        true when the soldier stands behind cover
--   health          the soldier's own health, 100 down to 0
--
-- Host functions (npc:...) the game provides: move_to(x, y) walks there and
-- returns on arrival; nearest(kind) returns x, y of the nearest thing of a
-- kind ("ammo_crate", "cover", "rally"); position() returns x, y; shoot()
-- fires one round at the target.

return {
  name = "Soldier",

  -- "hybrid": goals first (GOAP); when every goal is satisfied, or none has
  -- a plan, the utility planner picks one action. While a picked action
  -- runs, the scores are checked again every 0.1 s: another action
  -- replaces it only when it leads by more than a margin (0.1), so close
  -- scores do not swap every tick. When the pick ends, "armed" comes first again if
  -- the shooting emptied the magazine.
  decide = "hybrid",

  -- How the utility planner combines an action's considerations: multiply
  -- their scores, so one score of 0 rules the action out (no ammo, no
  -- attack). The engine compensates for the number of considerations, so an
  -- action with three of them is not punished for having more than one.
  utility_mode = "multiply",

  -- The considerations of every action that has none of its own. Only
  -- combat actions carry the tag "combat", so the supply actions score 0
  -- here and the utility planner never picks them: supply belongs to the
  -- goal "armed" above. (An action that scores 0 is never picked.)
  considerations = { 'hasTag("combat")' },

  state = {
    ammo = 0,
    magazines = 0,
    health = 100,
    enemy_visible = false,
    enemy_health = 0,
    -- Until the game's sensors say otherwise (and `moonmind run`, which
    -- has none, never does): an enemy at a middling range, no cover.
    enemy_distance = 300,
    in_cover = false,
  },

  goals = {
    { name = "armed", condition = "ammo > 10", priority = "high" },
  },

  actions = {
    -- Supply: planned by GOAP for the goal "armed". The planner reads pre,
    -- effects, fulfills and cost; utility scores do not matter here.
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
        npc:move_to(hx, hy) -- back to where it was (its cover, say)
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

    -- Combat: picked by the utility planner. Each consideration reads one
    -- state variable, maps it from [min, max] onto [0, 1] (min > max turns
    -- the scale round: less is more) and passes it through a response
    -- curve to a score in [0, 1]. `moonmind utility scripts/soldier.lua
    -- --state ...` prints every score with its inputs.
    --
    -- These actions have no effects: no goal needs them, so the GOAP
    -- planner never plans them, and effects are promises the flight recorder
    -- checks when an action finishes. A fight's outcome is no promise (the
    -- target may die before the magazine is empty), so attack and retreat
    -- promise nothing, and takeCover promises only what its body makes true.
    {
      name = "attack",
      pre = "enemy_visible && enemy_health > 0 && ammo > 0",
      utility = { tags = { "combat" } },
      considerations = {
        -- A full magazine scores 1, the last rounds about half (shift 0.5):
        -- a hurt soldier running low breaks off sooner.
        { name = "has ammo", input = "ammo", min = 0, max = 30, curve = "linear", shift = 0.5 },
        -- Healthy soldiers attack; below about 40 health the score falls.
        { name = "healthy", input = "health", min = 0, max = 100, curve = "logistic", slope = 10, offset = 0.4 },
        -- Nearness, 0 at 800 px (the edge of sight) to 1 at 0 px: worth
        -- shooting from about 500 px in.
        { name = "in range", input = "enemy_distance", min = 800, max = 0,
          curve = "logistic", slope = 8, offset = 0.2 },
      },
      run = function(npc)
        -- Fire until the magazine is empty or the target is down or gone.
        -- The checks come right after each shot and each pause, so the
        -- body ends as soon as it has nothing left to do.
        while true do
          npc:shoot()
          npc.state.ammo = npc.state.ammo - 1
          if npc.state.ammo <= 0 then return end
          npc:wait(0.2)
          if not npc.state.enemy_visible or npc.state.enemy_health <= 0 then return end
        end
      end,
    },
    {
      name = "takeCover",
      pre = "enemy_visible && enemy_health > 0 && !in_cover",
      effects = "in_cover = true",
      utility = { tags = { "combat" } },
      considerations = {
        -- Hurt, from 100 health (0) to 0 health (1): rises steeply between
        -- 80 and 50 health. With the margin a running attack keeps (0.1),
        -- a soldier out of cover breaks off to take cover at about 45.
        { name = "hurt", input = "health", min = 100, max = 0, curve = "logistic", slope = 12, offset = 0.35 },
        -- ...but not so hurt that only retreat makes sense: this falls
        -- off steeply below 35 health, where retreat rises, so a soldier
        -- that left its cover to retreat does not turn back to it.
        { name = "fit to fight", input = "health", min = 0, max = 100, curve = "logistic", slope = 20, offset = 0.35 },
        -- A near enemy makes cover more urgent: nearness plus 0.5 (shift),
        -- so 0.5 at the edge of sight, 1 at 400 px and nearer.
        { name = "threat near", input = "enemy_distance", min = 800, max = 0, curve = "linear", shift = 0.5 },
      },
      run = function(npc)
        local x, y = npc:nearest("cover")
        npc:move_to(x, y)
        npc.state.in_cover = true -- the promise; the game's sensor agrees
      end,
    },
    {
      name = "retreat",
      pre = "enemy_visible && enemy_health > 0",
      utility = { tags = { "combat" } },
      considerations = {
        -- Badly hurt, from 100 health (0) to 0 health (1): about 25 or less.
        { name = "badly hurt", input = "health", min = 100, max = 0, curve = "logistic", slope = 14, offset = 0.75 },
      },
      run = function(npc)
        -- Fall back to the rally point and catch breath there (in the demo
        -- a medic heals soldiers at the rally point); then choose again.
        local x, y = npc:nearest("rally")
        npc:move_to(x, y)
        npc:wait(3)
      end,
    },
  },
}
