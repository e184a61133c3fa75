-- No plans: the agent gets its mind when the action body first waits for
-- an event, long after the game started.
return {
  name = "Late",
  state = { go = false, why = "" },
  goals = { { name = "asked", condition = "why != \"\"" } },
  actions = {
    { name = "ask", pre = "go", effects = "why = \"x\"",
      run = function(npc)
        local _, why = npc:wait_event({ name = "never" }, 0.5)
        npc.state.why = why
      end },
  },
}
