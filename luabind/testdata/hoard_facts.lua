-- Keeps a table of 4 MiB strings in the agent's facts each tick: the facts
-- live outside the body's locals, and still count.
return {
  name = "Collector",
  state = { n = 0 },
  goals = { { name = "full", condition = "n >= 40" } },
  actions = { { name = "collect", output = "Hoard", effects = "n = 40", fulfills = { "full" }, run = function(npc)
    npc.facts.Hoard = {}
    for i = 1, 40 do
      npc.facts.Hoard[i] = string.rep("y", 4 * 2^20) .. i
      npc.state.n = i
      npc:wait(0.1)
    end
  end } },
}
