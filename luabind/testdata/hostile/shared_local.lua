-- want: testdata/hostile/shared_local.lua:14: local 'count' of shared_local.lua is shared by every agent of the role: top-level locals are constants once the file has loaded (keep per-agent data in npc.state or in the body's own locals)
-- A top-level local counted by every agent of the role: the file runs
-- once per runtime, so one agent's count would be another's.
local count = 0
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        count = count + 1
        npc.state.done = true
      end,
    },
  },
}
