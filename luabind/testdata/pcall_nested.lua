-- pcall that yields, nested and inside the script's own coroutines: each
-- yield reaches the right resumer and each pcall gets its function's
-- results back. npc.state.log records the order of events.
local function add(log, s) return log .. s end
return {
  name = "PcallNested",
  state = { done = false, log = "" },
  goals = { { name = "finished", condition = "done" } },
  actions = {
    {
      name = "careful",
      effects = "done = true",
      run = function(npc)
        local log = ""
        -- nested pcalls around a wait
        local ok1, ok2, v = pcall(function()
          return pcall(function()
            npc:wait(0.2)
            return "inner"
          end)
        end)
        log = add(log, tostring(ok1) .. tostring(ok2) .. v .. ";")
        -- a script coroutine whose function yields through pcall
        local co = coroutine.create(function(a)
          local ok, b = pcall(function()
            local got = coroutine.yield(a + 1)
            return got * 10
          end)
          local c = coroutine.yield(b)
          return "end" .. c
        end)
        local r1 = { coroutine.resume(co, 1) }
        local r2 = { coroutine.resume(co, 5) }
        local r3 = { coroutine.resume(co, "!") }
        log = add(log, tostring(r1[2]) .. "," .. tostring(r2[2]) .. "," .. tostring(r3[2]) .. "," .. coroutine.status(co) .. ";")
        -- a wrap function whose body pcalls a yield, and an error after it
        local w = coroutine.wrap(function()
          local ok, err = pcall(function()
            coroutine.yield("w1")
            error("late", 0)
          end)
          return tostring(ok) .. err
        end)
        log = add(log, w() .. "," .. w() .. ";")
        -- xpcall with a handler, around a wait
        local _, h = xpcall(function() npc:wait(0.1) error("x", 0) end, function(e) return "handled " .. e end)
        log = add(log, h .. ";")
        -- a pcall of something that is not a function
        local okn, errn = pcall(42)
        log = add(log, tostring(okn) .. " " .. errn)
        npc.state.log = log
        npc.state.done = true
      end,
    },
  },
}
