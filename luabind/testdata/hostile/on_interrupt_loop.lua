-- want: on_interrupt: testdata/hostile/on_interrupt_loop.lua:25: instruction budget exceeded: more than 500000 work units (Lua instructions plus the work of built-ins) in one resume of a body or one call of a callback or a role file (a runaway loop? see luabind.Options.InstructionBudget)
-- an on_interrupt handler that never ends: recorded as a failure of the action.
return {
  name = "Hostile",
  state = { done = false, alarm = false, ticks = 0 },
  goals = {
    { name = "finished", condition = "done", priority = "low" },
    { name = "calm", condition = "!alarm", priority = "high" },
  },
  sensors = {
    { name = "clock", run = function(npc)
        npc.state.ticks = npc.state.ticks + 1
        if npc.state.ticks == 3 then npc.state.alarm = true end
      end },
  },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        npc:wait(10)
        npc.state.done = true
      end,
      on_interrupt = function(npc)
        while true do end
      end,
    },
    { name = "calm_down", effects = "alarm = false", run = function(npc) npc.state.alarm = false end },
  },
}
