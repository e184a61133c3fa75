-- An action body uses the reactive methods too: it achieves a goal that a
-- plan serves, then waits for an event that never comes.
local mm = require("moonmind")
return {
  name = "Worker",
  state = { finished = false, helped = 0, why = "" },
  goals = { { name = "done", condition = "finished" } },
  plans = mm.plans(mm.plan("goal_added", { goal = "helper",
    body = function(npc) npc:wait(0.1); npc:believe("helped", npc.state.helped + 1); return "help" end })),
  actions = {
    { name = "work", effects = "finished = true", fulfills = { "done" },
      run = function(npc)
        local got = npc:achieve_with_result("helper")
        local ev, why = npc:wait_event({ name = "never" }, 0.3)
        npc.state.why = got .. " then " .. tostring(ev) .. " " .. why
        npc.state.finished = true
      end },
  },
}
