-- A module two role files require. Its functions keep values in a
-- top-level local, so it could carry a coroutine or a host call from one
-- agent to another; each role file gets its own copy of the module.
local M = { list = { 1, 2, 3 } }
local box = {}
function M.put(k, v) box[k] = v end
function M.get(k) return box[k] end
function M.greet(name) return "hello " .. name end
return M
