-- want: testdata/hostile/mem_strings.lua:2:15: parse error near 'traceback'
stack traceback:
	luabind:74: in main chunk
	[G]: ?
-- strings kept across ticks.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local keep = {}
        while true do
          keep[#keep + 1] = string.rep("x", 4000000) .. #keep
          npc:wait(0.1)
        end
        npc.state.done = true
      end,
    },
  },
}
