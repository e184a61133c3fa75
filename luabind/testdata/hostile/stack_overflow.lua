-- want: testdata/hostile/stack_overflow.lua:13: stack overflow: more than 200 nested Lua calls (a recursion that never ends?)
-- unbounded recursion.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local function f(n)
          return 1 + f(n + 1)
        end
        f(1)
        npc.state.done = true
      end,
    },
  },
}
