-- One action that applies only when ready; its consideration reads a
-- string, which is no number (its input is NaN, its output 0).
return {
  name = "Idle",
  decide = "utility",
  state = { ready = false, mood = "calm" },
  actions = {
    { name = "go", pre = "ready", considerations = { { input = "mood", min = 0, max = 1 } } },
  },
}
