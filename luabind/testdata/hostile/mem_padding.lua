-- want: testdata/hostile/mem_padding.lua:2:15: parse error near 'traceback'
stack traceback:
	luabind:74: in main chunk
	[G]: ?
-- assignments far past the end of lists pad them.
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
        for i = 1, 1000 do
          local t = {}
          t[4000000] = i
          keep[i] = t
        end
        npc.state.done = true
      end,
    },
  },
}
