-- A module every role of the runtime shares.
local M = { list = { 1, 2, 3 } }
function M.greet(name) return "hello " .. name end
return M
