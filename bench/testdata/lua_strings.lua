-- A body that writes four strings to its state every resume: two texts
-- from a table of literals and two built by concatenation (a new Lua
-- string each time, an old text), then waits a tick.
local modes = { "patrol", "attack", "flee", "search" }
return {
  name = "LuaStrings",
  state = { done = false, mode = "patrol", target = "enemy0", order = "hold", call = "none" },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "talk",
      effects = "done = true",
      run = function(npc)
        local i = 0
        while true do
          i = i + 1
          npc.state.mode = modes[i % 4 + 1]
          npc.state.order = modes[(i + 1) % 4 + 1]
          npc.state.target = "enemy" .. (i % 8)
          npc.state.call = "squad" .. (i % 3) .. "-go"
          npc:wait(1 / 120)
        end
      end,
    },
  },
}
