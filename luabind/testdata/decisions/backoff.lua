-- Issue 13.3: Work is the only way to money and fails once; while it is
-- backed off, planning says so (not the cycle Invest makes, nor the long way
-- round Save x20, Buy, which is past the depth limit).
-- (The tries are counted in npc.state: top-level locals are constants.)
return {
  name = "Worker",
  state = { rich = false, coins = 0, runs = 0 },
  goals = { { name = "money", condition = "rich", priority = "high" } },
  actions = {
    { name = "Work", effects = "rich = true",
      run = function(npc)
        npc.state.runs = npc.state.runs + 1
        if npc.state.runs == 1 then error("the tool broke") end
        npc.state.rich = true
      end },
    { name = "Invest", pre = "rich", effects = "rich = true", run = function(npc) end },
    { name = "Save", effects = "coins = coins + 1", run = function(npc) npc.state.coins = npc.state.coins + 1 end },
    { name = "Buy", pre = "coins >= 20", effects = "rich = true", run = function(npc) npc.state.rich = true end },
  },
}
