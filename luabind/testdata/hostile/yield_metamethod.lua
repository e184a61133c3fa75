-- want: testdata/hostile/yield_metamethod.lua:12: cannot wait or yield inside a metamethod or a for-in iterator (__index, __newindex, __lt, __call, ..., f in for k in f): gopher-lua runs it in a Go call it cannot suspend
-- a wait inside an __index metamethod.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local t = setmetatable({}, { __index = function() npc:wait(1) return 1 end })
        local x = t.missing
        npc.state.done = true
      end,
    },
  },
}
