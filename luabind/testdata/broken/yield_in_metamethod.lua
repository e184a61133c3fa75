-- Waiting inside an __index metamethod: no Go frame shows on the Lua
-- stack, so the sandbox cannot refuse the yield up front; the body fails
-- when gopher-lua trips over it, and the process lives on.
return {
  name = "YieldInMetamethod",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "lazy",
      effects = "done = true",
      run = function(npc)
        local lazy = setmetatable({}, {
          __index = function(_, k)
            npc:wait(0.1)
            return k
          end,
        })
        local a = lazy.x
        local b = lazy.y
        npc.state.done = a == "x" and b == "y"
      end,
    },
  },
}
