-- 20 plans: 19 on beliefs the benchmark never changes, and one on x whose
-- Lua trigger runs and finds the event not relevant.
local plans = {}
for i = 1, 19 do
  plans[i] = { name = "p" .. i, on = "belief_added", belief = "v" .. i, body = function() end }
end
plans[20] = { name = "x", on = "belief_added", belief = "x",
  trigger = function(b) if b.value < 0 then return b end end,
  body = function() end }
local state = { x = 0 }
for i = 1, 19 do state["v" .. i] = 0 end
return { name = "Listener", state = state, plans = plans }
