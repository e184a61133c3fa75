-- A body that asks the game to reload its own scripts (a host method does)
-- and keeps what it answered.
return {
  name = "Reloader",
  state = { done = false, answer = "" },
  goals = { { name = "done", condition = "done" } },
  actions = {
    { name = "work", effects = "done = true, answer = answer",
      run = function(npc)
        local ok, err = npc:reload_scripts()
        npc.state.answer = tostring(ok) .. " " .. tostring(err)
        npc.state.done = true
      end },
  },
}
