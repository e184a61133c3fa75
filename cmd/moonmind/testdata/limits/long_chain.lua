-- Goal gN needs the chain a1 .. aN; "spare" helps nothing. check found the
-- unused action by recomputing every goal's relevant actions for every
-- action, each in passes over all actions: a 300-goal chain took a minute.
local state, goals, actions = {}, {}, {}
for i = 1, 60 do
  state["v" .. i] = false
  goals[#goals + 1] = { name = "g" .. i, condition = "v" .. i }
  actions[#actions + 1] = { name = "a" .. i, effects = "v" .. i .. " = true",
    pre = i > 1 and ("v" .. (i - 1)) or nil }
end
state.w = false
actions[#actions + 1] = { name = "spare", effects = "w = true" }
return { name = "LongChain", state = state, goals = goals, actions = actions }
