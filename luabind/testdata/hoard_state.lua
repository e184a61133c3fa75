-- Keeps a new 15 MiB string in another state variable each tick: the
-- strings live in the agent's state, outside Lua, and still count.
return {
  name = "Hoarder",
  state = { s1 = "", s2 = "", s3 = "", s4 = "", s5 = "", s6 = "", s7 = "", s8 = "", n = 0 },
  goals = { { name = "rich", condition = "n >= 8" } },
  actions = { { name = "hoard", effects = "n = 8", fulfills = { "rich" }, run = function(npc)
    for i = 1, 8 do
      npc.state["s" .. i] = string.rep("x", 15 * 2^20) .. i
      npc.state.n = i
      npc:wait(0.1)
    end
  end } },
}
