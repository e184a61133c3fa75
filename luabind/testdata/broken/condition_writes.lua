return {
  name = "ConditionWrites",
  state = { hp = 100 },
  conditions = {
    hurt = function(npc)
      npc.state.hp = 0
      return true
    end,
  },
}
