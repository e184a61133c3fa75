-- npc:wait and npc:wait_until inside a coroutine the script made itself
-- do not put the body to sleep: they yield to the script's own
-- coroutine.resume (or the function coroutine.wrap made), which gets the
-- engine's values (a sleep token and the seconds; nothing for
-- wait_until). The body goes on at once.
return {
  name = "CoWait",
  state = { done = false },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "work",
      effects = "done = true",
      run = function(npc)
        local co = coroutine.wrap(function()
          npc:wait(5)
          return "woke"
        end)
        local token, seconds = co()
        npc:report("wrap wait: " .. type(token) .. " " .. tostring(getmetatable(token)) .. " " .. tostring(seconds))
        npc:report("wrap again: " .. tostring(co()))
        local th = coroutine.create(function()
          npc:wait_until(function() return false end)
        end)
        npc:report("create wait_until: " .. select("#", coroutine.resume(th)) .. " " .. coroutine.status(th))
        npc:wait(0.15) -- the body's own wait sleeps
        npc:report("after own wait")
        npc.state.done = true
      end,
    },
  },
}
