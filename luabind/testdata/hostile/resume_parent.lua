-- want: testdata/hostile/resume_parent.lua:14: coroutine.resume: cannot resume a coroutine that is not suspended (it is running, or waits for a coroutine it resumed)
-- a coroutine made by coroutine.wrap resumes the body that resumed it: the
-- two would resume each other until Go's stack overflows and kills the game.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local body = coroutine.running()
        local w = coroutine.wrap(function() coroutine.resume(body) end)
        w()
        npc.state.done = true
      end,
    },
  },
}
