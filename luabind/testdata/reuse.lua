-- Bodies that run one after another, for TestBodyCoroutineReuse: "leave"
-- leaves what it can behind on its coroutine (locals, a closure over
-- them, values deep in the stack, a caught error), "look" reports what it
-- finds, "keep" gets hold of its own coroutine, "check" looks at it.
local chan = require("testdata.channel")

return {
  name = "Reuse",
  state = { report = "" },
  actions = {
    {
      name = "leave",
      run = function(npc)
        local secret, list = "left by " .. npc.name, { 1, 2, 3 }
        local function deep(n, ...)
          local a, b, c, d, e, f, g, h = n, secret, list, n, n, n, n, n
          if n > 0 then
            local r = deep(n - 1, a, b, c, d, e, f, g, h, ...)
            return r
          end
          return select("#", ...)
        end
        chan.box().count = deep(2)
        chan.box().peek = function() return secret end
        pcall(error, {})
        npc:wait(0.1)
        return secret, list
      end,
    },
    {
      name = "look",
      run = function(npc, ...)
        local a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p
        local found = {}
        for _, v in ipairs({ a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p }) do
          found[#found + 1] = tostring(v)
        end
        npc.state.report = npc.name .. " args=" .. select("#", ...) .. " locals=" .. #found ..
          " status=" .. coroutine.status(chan.box().co or coroutine.create(function() end)) ..
          " count=" .. chan.box().count .. " peek=" .. chan.box().peek()
        npc:wait(0.1)
        error({})
      end,
    },
    {
      name = "keep",
      run = function(npc)
        chan.box().co = coroutine.running()
        npc:wait(0.1)
      end,
    },
    {
      name = "check",
      run = function(npc)
        npc.state.report = "kept=" .. coroutine.status(chan.box().co) ..
          " same=" .. tostring(coroutine.running() == chan.box().co)
        local ok, err = coroutine.resume(chan.box().co)
        npc.state.report = npc.state.report .. " resume=" .. tostring(ok) .. " " .. err
      end,
    },
  },
}
