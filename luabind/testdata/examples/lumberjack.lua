-- Half of a mixed agent for luabind's tests: this Lua role chops wood; a
-- role written in Go, compiled with it, carries the wood home.
return {
  name = "Lumberjack",
  state = { wood = 0, axe_sharp = true },
  actions = {
    { name = "chop", pre = "axe_sharp", effects = "wood = wood + 2", run = function(npc)
        npc:wait(0.2)
        npc.state.wood = npc.state.wood + 2
      end },
  },
}
