-- want: testdata/hostile/resume_grandparent.lua:15: coroutine.resume: cannot resume a coroutine that is not suspended (it is running, or waits for a coroutine it resumed)
-- a coroutine two levels down resumes the one that resumed its parent.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local outer
        outer = coroutine.create(function()
          local inner = coroutine.create(function()
            local _, err = coroutine.resume(outer)
            error(err, 0)
          end)
          local _, err = coroutine.resume(inner)
          error(err, 0)
        end)
        local _, err = coroutine.resume(outer)
        error(err, 0)
      end,
    },
  },
}
