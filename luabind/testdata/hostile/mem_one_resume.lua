-- want: testdata/hostile/mem_one_resume.lua:15: memory limit exceeded (64 MiB): built-ins would allocate 65 MiB in one resume, on top of the 0 MiB the body holds (see luabind.Options.MemoryLimit)
-- budget: 1000000000
-- strings built in one resume.
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
          keep[i] = string.rep("y", 1000000) .. i
        end
        npc.state.done = true
      end,
    },
  },
}
