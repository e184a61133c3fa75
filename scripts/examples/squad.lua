-- A squad soldier's reactions, as reactive plans next to its goals: a heard
-- shot makes it take cover, running dry it tells its squad, and a fetch
-- from an empty crate is recovered by a failure plan that tries the next
-- crate. Two of them on the training ground (Alpha's mate is Bravo, and
-- the other way round; each hears the other's shots):
--   go run ./cmd/moonmind run Alpha=scripts/examples/squad.lua Bravo=scripts/examples/squad.lua --ticks 40
local mm = require("moonmind")

return mm.role {
  name = "Squad",
  state = {
    ammo = 3, magazines = 0, in_cover = false,
    shot_x = 0, shot_y = 0, heard_shot = false,  -- a shot heard (in a game, a sensor sets it)
    mate = "",                                     -- the squad mate
    mate_dry = "",                                 -- told by a squad mate that ran dry
    crates_empty = 1,                              -- crates 1..crates_empty are empty
  },
  quiet_beliefs = true,
  initial_goals = { "pair", { "fetch", 1 } },
  plans = {
    { name = "pair", on = "goal_added", goal = "pair",
      body = function(npc) npc:believe("mate", npc.name == "Alpha" and "Bravo" or "Alpha") end },
    { name = "take cover", on = "belief_added", belief = "heard_shot",
      guard = function(b, npc) if b.value and not npc.state.in_cover then return b end end,
      body = function(npc)
        npc:print("shot heard at", npc.state.shot_x, npc.state.shot_y, "- taking cover")
        npc:move_to(npc:nearest("cover"))
        npc:believe("in_cover")
      end },
    { name = "out of ammo", on = "belief_added", belief = "ammo",
      guard = function(b, npc) if b.value == 0 and npc.state.mate ~= "" then return b end end,
      body = function(npc) npc:tell(npc.state.mate, "mate_dry", npc.name) end },
    { name = "cover a mate", on = "belief_added", belief = "mate_dry",
      body = function(npc, b) npc:print(b.value, "ran dry: covering") end },
    { name = "fetch", on = "goal_added", goal = "fetch",
      body = function(npc, goal)
        local crate = goal[2]
        npc:move_to(npc:nearest("ammo_crate"))
        if crate <= npc.state.crates_empty then
          error("crate " .. crate .. " is empty")
        end
        npc.state.magazines = npc.state.magazines + 1
        return crate
      end },
    { name = "next crate", on = "goal_failed", goal = "fetch",
      guard = function(goal) if goal[2] < 3 then return goal end end,
      body = function(npc, goal)
        npc:print("crate", goal[2], "was empty: trying crate", goal[2] + 1)
        return npc:achieve_with_result({ "fetch", goal[2] + 1 })
      end },
  },
  actions = {
    { name = "shoot", pre = "ammo > 0", effects = "ammo = ammo - 1",
      run = function(npc)
        npc:wait(0.5)
        npc.state.ammo = npc.state.ammo - 1
        local x, y = npc:position()
        npc:tell(npc.state.mate, "shot_x", x)
        npc:tell(npc.state.mate, "shot_y", y)
        npc:tell(npc.state.mate, "heard_shot", true)
      end },
  },
  goals = { { name = "spent", condition = "ammo == 0", priority = "low" } },
}
