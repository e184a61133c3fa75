-- luacheck configuration for moonmind's Lua scripts (`luacheck scripts/`).
-- Scripts run in moonmind's sandbox (see luabind.NewRuntime): Lua 5.1's
-- base library without the file and load functions, read-only table,
-- string, math and coroutine, and no way to create globals.
std = "lua51"
read_globals = {}
globals = {}
not_globals = {
  "dofile", "loadfile", "load", "loadstring", "getfenv", "setfenv",
  "collectgarbage", "module", "newproxy", "os", "io", "debug", "package",
}
max_line_length = 120

-- The LuaLS definitions declare functions without bodies on tables that
-- are never read, and their annotation lines are long.
files["scripts/types"] = { unused = false, max_line_length = false }
files["luabind/moonmind.lua"] = {}
