-- achieve of a GOAP goal: no reactive plan serves "armed", so the planner
-- does (fetch, reload) and the intention goes on when the goal holds.
return {
  name = "Gunner",
  state = { ammo = 0, magazines = 0 },
  decide = "utility",
  considerations = { 'hasTag("none")' }, -- no pick: only the goal asked for moves the agent
  goals = { { name = "armed", condition = "ammo > 10" }, { name = "fly", condition = "ammo > 100" } },
  initial_goals = { "prepare" },
  plans = {
    { on = "goal_added", goal = "prepare",
      body = function(npc)
        npc:achieve("armed")
        npc:print("armed with", npc.state.ammo)
        npc:achieve("fly")
      end },
  },
  actions = {
    { name = "fetch", effects = "magazines = magazines + 1", run = function(npc) npc:wait(0.1); npc.state.magazines = npc.state.magazines + 1 end },
    { name = "reload", pre = "magazines > 0", effects = "ammo = 30, magazines = magazines - 1", fulfills = { "armed" },
      run = function(npc) npc.state.ammo = 30; npc.state.magazines = npc.state.magazines - 1 end },
  },
}
