-- A utility role whose consideration draws from math.random and whose bodies
-- print tostring ids and random numbers: its trace must not depend on how
-- many workers tick the world, nor on the agents beside it.
return {
  name = "Dice",
  decide = "utility",
  state = { rolls = 0 },
  considerations = {
    function(action, state)
      return math.random()
    end,
  },
  actions = {
    { name = "roll", run = function(npc)
        local t = {}
        npc:print("roll", tostring(t), tostring({}), math.random(1000))
        npc:wait(0.1)
      end },
    { name = "name", run = function(npc)
        npc:print("name", tostring(npc), tostring(function() end), tostring({}))
        npc:wait(0.1)
      end },
    { name = "rest", run = function(npc) npc:wait(0.2) end },
  },
}
