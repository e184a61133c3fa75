-- Makes coroutines that each grow their value stack deep and wait there,
-- one more every tick.
return {
  name = "Digger",
  state = { n = 0 },
  goals = { { name = "deep", condition = "n >= 400" } },
  actions = { { name = "dig", effects = "n = 400", fulfills = { "deep" }, run = function(npc)
    local held = {}
    local function down(d)
      local a, b, c, e, f, g, h, i, j, k, l, m, o, p, q, r = d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d
      local s, t, u, v, w, x, y, z, a2, b2, c2, d2, e2, f2, g2, h2 = d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d
      if d == 0 then coroutine.yield() return 0 end
      return down(d - 1) + a + s
    end
    for n = 1, 400 do
      for k = 1, 40 do
        local co = coroutine.create(down)
        local ok, err = coroutine.resume(co, 150)
        if not ok then error(err) end
        held[#held + 1] = co
      end
      npc.state.n = n
      npc:wait(0.1)
    end
  end } },
}
