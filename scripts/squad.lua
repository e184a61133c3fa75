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
-- soldier stands at and returns false when it is empty; face(x, y) turns
-- to look at a point; mates() returns the names of its living squad mates;
-- next_crate(x, y) returns x, y of the nearest other crate with stock (or
-- nothing); object_at(name) returns x, y of a smart object (npc.holds);
-- target_at() returns x, y of the enemy it aims at (or nothing);
-- look_at(x, y, seconds) turns it toward (x, y) for that long while it walks.
--
-- Coordination (docs/coordination.md): the game adds smart objects to the
-- world, a crate object per crate with a slot per magazine in it and each
-- team's medic with two slots while it has supply. fetchMagazine uses a
-- crate, so no two soldiers walk to a crate for its last magazine;
-- retreat and regroup use the team's medic, which heals only the soldiers
-- holding its slots. Each team is a squad sharing the squad table below:
-- a soldier that spots an enemy reports where, and mates that cannot see
-- it turn toward it.
--
-- Reactive plans (docs/reactive-plans.md) handle what happens to a soldier
-- rather than what it chooses to do:
--   * a heard shot, with no enemy in sight: it turns toward the shot and
--     asks to be "braced", which the GOAP planner serves with duck (to the
--     nearest cover, facing the shot); then it moves up again;
--   * running dry (no rounds, no magazine: the condition "dry"): it tells
--     every squad mate (mate_dry = its name), and each mate notes it;
--   * an empty crate: fetchMagazine asks for the goal {"magazine", x, y, try};
--     when the crate at x, y turns out empty the goal fails, and the failure
--     plan "next crate" tries the nearest other crate with stock (three
--     crates at most).
-- Movement stays with the action bodies, except in the magazine plans,
-- which run while fetchMagazine waits for them.
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
    alert = false,   -- a plan heard a shot and wants cover (the goal braced)
    mate_dry = "",   -- told by a squad mate that ran dry: its name
    order = "",      -- told by the squad leader: the commander model's first step
  },

  -- The perception memory (docs/perception.md): the game perceives a
  -- soldier's target as "enemy" while the soldier sees it. With no sight
  -- of it for 0.5 s it is lost, and the soldier remembers where it was
  -- last seen, less and less sure (half as sure every 4 s): action search
  -- goes there while it is still sure enough.
  memory = { half_life = 4, forget = 0.1, lose_after = 0.5 },

  -- Every soldier starts with the goal "orders"; only the squad leaders
  -- (blue1, red1) ask the commander model (npc:llm_plan) for them.
  initial_goals = { "orders" },

  -- Only the beliefs some plan reacts to are recorded, not every sensor
  -- change (enemy_distance, health...).
  quiet_beliefs = true,

  -- What the squad knows: where a soldier last reported an enemy, and how
  -- many reports there were this round (a new one is news to every mate).
  squad = { enemy_x = 0, enemy_y = 0, sightings = 0 },

  check_ignore = {
    ["no-object:crate"] = "the demo adds a crate object per crate of its map",
    ["no-object:medic"] = "the demo adds each team's medic at its rally point",
  },

  conditions = {
    dry = function(npc) return npc.state.ammo <= 0 and npc.state.magazines <= 0 end,
  },

  goals = {
    -- Below "armed": a soldier low on rounds fetches first.
    -- Held again when duck has brought the soldier to cover and waited
    -- there (it clears alert), or when the plan's alert times out. Not
    -- "in_cover || !alert": reaching cover would end duck before it faced
    -- the shot and cleared alert, and advance would lead it out again.
    { name = "braced", condition = "!alert", priority = "normal" },
  },

  plans = {
    {
      -- With no model configured (no MOONMIND_LLM_BASE_URL) llm_plan
      -- answers nil, "unavailable" at once and nothing else changes.
      name = "commander's orders",
      on = "goal_added", goal = "orders",
      body = function(npc)
        if npc.name ~= "blue1" and npc.name ~= "red1" then return end
        local plan, why = npc:llm_plan("Win this round: the enemy squad holds the far side of the field.",
          { capabilities = { "advance", "takeCover", "regroup", "retreat" }, timeout = 10 })
        local first = plan and plan.steps[1] and plan.steps[1].action
        if not first then
          npc:print("no orders from the commander model (" .. tostring(why or "an empty plan") .. ")")
          return
        end
        for _, m in ipairs({ npc:mates() }) do
          npc:tell(m, "order", first)
        end
        npc:print("the commander model orders: " .. first)
      end,
    },
    {
      name = "order heard",
      on = "belief_added", belief = "order",
      guard = function(b) if b.value ~= "" then return b end end,
      body = function(npc, b) npc:print("order from the leader: " .. b.value) end,
    },
    {
      name = "shot heard",
      on = "belief_added", belief = "heard_shot",
      guard = function(b, npc)
        if b.value and not npc.state.enemy_visible and not npc.state.alert then return b end
      end,
      body = function(npc)
        local x, y = npc.state.heard_x, npc.state.heard_y
        npc:face(x, y)
        npc:print(string.format("heard a shot from %.0f, %.0f: taking cover", x, y))
        npc:believe("alert", true)
        -- duck clears alert when it gets there. An enemy in sight rules
        -- duck out (the fight decides then); after 5 s the alert ends anyway.
        if not npc:wait_event({ kind = "belief_added", name = "alert", value = false }, 5) then
          npc:believe("alert", false)
        end
      end,
    },
    {
      name = "tell the squad",
      on = "belief_added", belief = "dry",
      guard = function(b) if b.value then return b end end,
      body = function(npc)
        local mates = { npc:mates() }
        for _, m in ipairs(mates) do
          npc:tell(m, "mate_dry", npc.name)
        end
        npc:print("out of ammo, told " .. #mates .. " mates")
      end,
    },
    {
      name = "mate ran dry",
      on = "belief_added", belief = "mate_dry",
      guard = function(b) if b.value ~= "" then return b end end,
      body = function(npc, b)
        npc:print(b.value .. " ran dry")
        npc:forget("mate_dry") -- so the next time it runs dry is news again
      end,
    },
    {
      -- Squad knowledge: the soldier reports an enemy it has just spotted.
      name = "report the enemy",
      on = "belief_added", belief = "enemy_visible",
      guard = function(b) if b.value then return b end end,
      body = function(npc)
        local x, y = npc:target_at()
        if not x then return end
        npc.squad.enemy_x = math.floor(x + 0.5) -- whole pixels read better in the trace
        npc.squad.enemy_y = math.floor(y + 0.5)
        npc.squad.sightings = npc.squad.sightings + 1
      end,
    },
    {
      -- A mate's report (the squad's board, from the next tick): a soldier
      -- that sees no enemy itself turns toward it, and keeps looking there
      -- for 2 s while it walks.
      name = "mate spotted an enemy",
      on = "belief_added", belief = "squad.sightings",
      guard = function(b, npc)
        if b.from and not npc.state.enemy_visible then return b end
      end,
      body = function(npc)
        npc:look_at(npc.squad.enemy_x, npc.squad.enemy_y, 2)
      end,
    },
    {
      name = "fetch",
      on = "goal_added", goal = "magazine",
      body = function(npc, goal)
        npc:move_to(goal[2], goal[3])
        npc:wait(0.5)
        if not npc:take_magazine() then
          error(string.format("the crate at %.0f, %.0f is empty", goal[2], goal[3]))
        end
        return goal[4]
      end,
    },
    {
      name = "next crate",
      on = "goal_failed", goal = "magazine",
      guard = function(goal) if goal[4] < 3 then return goal end end,
      body = function(npc, goal)
        local x, y = npc:next_crate(goal[2], goal[3])
        if not x then error("no other crate has a magazine") end
        npc:print(string.format("crate at %.0f, %.0f was empty: trying %.0f, %.0f", goal[2], goal[3], x, y))
        return npc:achieve_with_result({ "magazine", x, y, goal[4] + 1 })
      end,
    },
  },

  actions = {
    -- As in soldier.lua, but from the crate the step holds (a slot per
    -- magazine in it, so one is there for it): the walk and the take are
    -- the goal {"magazine", x, y, 1} of the plans above, whose failure plan
    -- tries another crate should the game empty it meanwhile. When every
    -- try fails, achieve raises the error here, the step fails and the
    -- soldier plans again. The step, and its hold on the crate, ends back
    -- where it started (its cover, say).
    {
      name = "fetchMagazine",
      uses = "crate",
      effects = "magazines = magazines + 1",
      cost = 2,
      utility = { cost = 20, value = 30, tags = { "supply" } },
      run = function(npc)
        local hx, hy = npc:position()
        local cx, cy = npc:object_at(npc.holds)
        if not cx then cx, cy = npc:nearest("ammo_crate") end
        npc:achieve({ "magazine", cx, cy, 1 })
        npc.state.magazines = npc.state.magazines + 1
        npc:move_to(hx, hy) -- back to where it was
      end,
    },
    -- For the goal braced (a plan heard a shot): to the nearest cover,
    -- facing where the shot came from, and wait there a moment. Not a
    -- combat action, so the utility planner never picks it.
    {
      name = "duck",
      pre = "!enemy_visible && alert",
      effects = "alert = false",
      cost = 1,
      utility = { tags = { "reaction" } },
      run = function(npc)
        local sx, sy = npc.state.heard_x, npc.state.heard_y
        npc:face(sx, sy)
        local x, y = npc:nearest("cover")
        npc:move_to(x, y)
        npc:face(sx, sy)
        npc:wait(1)
        npc.state.alert = false
      end,
    },
    -- As in soldier.lua, but only while the medic at the rally point has
    -- something left to give: with the medic spent, a badly hurt soldier
    -- fights on (takeCover or attack) instead of running back and forth.
    {
      name = "retreat",
      uses = "medic",
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
      -- With nobody in sight but an enemy lost from sight not long ago:
      -- walk to where it was last seen and look around. Picked again
      -- while the memory is still sure (above 0.3: about 7 s after the
      -- enemy was last seen); then the soldier gives up and advances.
      -- It scores 1 (the role's hasTag("combat")), just above advance.
      name = "search",
      pre = "!enemy_visible && memory.enemy.lost && memory.enemy.confidence > 0.3",
      utility = { tags = { "combat" } },
      run = function(npc)
        local enemy = npc:recall("enemy")
        if not enemy then return end
        npc:move_to(enemy.x, enemy.y)
        npc:wait(0.5)
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
      uses = "medic",
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
