-- want: testdata/hostile/pattern_deep.lua:13: string.match: pattern "(.*)b" on a 200000-byte string could make the matcher recurse 200002 levels deep, more than the sandbox allows (100000); each level holds Go stack, so match a shorter string or a repetition that cannot run over the whole of it
-- a repetition over a long string: the matcher's recursion is bounded.
return {
  name = "Hostile",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local s = string.rep("a", 200000)
        npc.state.done = s:match("(.*)b") ~= nil
        npc.state.done = true
      end,
    },
  },
}
