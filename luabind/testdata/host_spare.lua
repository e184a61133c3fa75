-- Host calls for TestHostCallHandles: "walk" waits in npc:walk for
-- several ticks, "ping" calls npc:ping (done at once) and npc:relay,
-- whose Go function calls Lua (Runtime.Call) that calls npc:ping again.
return {
  name = "Hosts",
  state = { log = "" },
  actions = {
    {
      name = "walk",
      run = function(npc)
        local where, steps = npc:walk("north", 3)
        npc.state.log = npc.state.log .. "walked " .. where .. " in " .. steps
      end,
    },
    {
      name = "ping",
      run = function(npc)
        local a, b = npc:ping("outer", 1)
        local c = npc:relay()
        npc.state.log = npc.state.log .. a .. " " .. b .. " " .. c
      end,
    },
  },
}
