-- Bodies that sleep in npc:wait in every way a body can: in a loop, as
-- the body's last call (return npc:wait), through a helper's tail call,
-- inside a wrapped coroutine and a pcall; a sensor that makes them
-- hungry or tired now and then, so goals interrupt sleeping bodies.
local function nap(npc, s) return npc:wait(s) end

return {
  name = "Sleepers",
  state = { energy = 3, food = 3, naps = 0, meals = 0, ticks = 0 },
  goals = {
    { name = "fed", condition = "food > 4", priority = "high" },
    { name = "rested", condition = "energy > 6", priority = "normal" },
  },
  sensors = {
    {
      name = "hunger",
      every = 0.25,
      run = function(npc)
        npc.state.ticks = npc.state.ticks + 1
        if npc.state.ticks % 7 == 0 then npc.state.food = npc.state.food - 3 end
        if npc.state.ticks % 5 == 0 then npc.state.energy = npc.state.energy - 2 end
      end,
    },
  },
  actions = {
    {
      name = "eat",
      effects = "food = food + 2",
      cost = 1,
      run = function(npc)
        npc:wait(0.1)
        npc.state.meals = npc.state.meals + 1
        npc.state.food = npc.state.food + 2
        return npc:wait(0.3)
      end,
    },
    {
      name = "sleep",
      effects = "energy = energy + 3",
      cost = 2,
      run = function(npc)
        for i = 1, 2 do
          local ok = pcall(npc.wait, npc, 0.2)
          local w = coroutine.wrap(function(s) return npc:wait(s) end)
          w(0.05)
        end
        npc.state.naps = npc.state.naps + 1
        npc.state.energy = npc.state.energy + 3
        do return nap(npc, 0.45) end
      end,
    },
  },
}
