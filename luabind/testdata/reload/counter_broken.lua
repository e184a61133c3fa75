-- A broken version: the reload must keep version 1 running.
return {
  name = "Counter",
  decide = "utility",
  state = { count = 0 },
  goals = { { name = "counted", condition = "count >= " } },
  actions = {
    { name = "step", effects = "count = count + 1", run = function() end },
  },
}
