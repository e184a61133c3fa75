-- An intention that keeps what it builds, 64 KiB more every tick.
return {
  name = "Hoard",
  state = { x = 0 },
  initial_goals = { "hoard" },
  plans = {
    { name = "hoard", on = "goal_added", goal = "hoard",
      body = function(npc)
        local kept = {}
        for i = 1, 1000 do
          kept[i] = string.rep("x", 65536) .. i
          npc:wait(0.1)
        end
      end },
  },
}
