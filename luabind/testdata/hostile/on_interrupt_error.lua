-- want: on_interrupt: testdata/hostile/on_interrupt_error.lua:25: cleanup failed
-- an on_interrupt handler that fails: recorded as a failure of the action.
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
        error("cleanup failed")
      end,
    },
    { name = "calm_down", effects = "alarm = false", run = function(npc) npc.state.alarm = false end },
  },
}
