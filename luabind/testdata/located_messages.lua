-- Failures whose messages once had no file and line.
return {
  name = "Located",
  state = { done = false },
  conditions = {
    ready = function(npc)
      return 5
    end,
  },
  goals = { { name = "g", condition = "done == true" } },
  actions = {
    { name = "gated", pre = "ready", effects = "done = true", fulfills = { "g" } },
    { name = "b", effects = "done = true", fulfills = { "g" }, cost = 5, run = function(npc)
      local function f() return f() + 1 end
      local ok, err = pcall(f)
      npc:print(err)
      for k in function() npc:wait(1) end do end
    end },
  },
}
