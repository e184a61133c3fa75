-- A module's local (channel.lua) is shared by every agent of the role; an
-- npc kept in it must not reach another agent.
local chan = require("testdata.channel")

return {
  name = "Leak",
  state = { hp = 100, done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "grab",
      effects = "done = true",
      run = function(npc)
        local other = chan.box().npc
        chan.box().npc = npc
        if other ~= nil then
          other.state.hp = 0
        end
        npc.state.done = true
      end,
    },
  },
}
