-- want: testdata/hostile/wait_badarg.lua:12: bad argument #1 to 'wait' (number expected, got string)
-- a bad argument to npc:wait.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        npc:wait("soon")
        npc.state.done = true
      end,
    },
  },
}
