package luabind

import "testing"

// TestYieldInMoreMetamethods: more places a body can yield from, with
// their outcome; TestMain fails the package when the call frames
// (calledFromCode) and the Go stack disagree on any of them.
func TestYieldInMoreMetamethods(t *testing.T) {
	const metamethod = "cannot wait or yield inside a metamethod"
	mt2 := func(event, fn string) string {
		return "local mt = { " + event + " = function() " + fn + " return true end }\nlocal a, b = setmetatable({}, mt), setmetatable({}, mt)\n"
	}
	cases := []yieldCase{
		{"__le", mt2("__le", "npc:wait(0.1)") + "local x = a <= b", "3: " + metamethod},
		{"__eq", mt2("__eq", "coroutine.yield()") + "local x = a == b", "3: " + metamethod},
		{"__concat", mt2("__concat", "coroutine.yield()") + "local x = a .. b",
			"3: cannot wait or yield inside a callback of a __concat metamethod: gopher-lua cannot suspend the Go function that called it"},
		{"__len", mt2("__len", "npc:wait(0.1)") + "local x = #a", "3: " + metamethod},
		{"__unm", mt2("__unm", "npc:wait(0.1)") + "local x = -a", "3: " + metamethod},
		{"__index through a table", `local u = setmetatable({}, { __index = function() coroutine.yield() return 1 end })
local t = setmetatable({}, { __index = u })
local x = t.a`, "3: " + metamethod},
		{"__index chained to the npc then yields", `local t = setmetatable({}, { __index = function(_, k) local s = npc.state coroutine.yield() return s end })
local x = setmetatable({}, { __index = t }).state`, "3: " + metamethod},
		// The tail call leaves no frame of the __index function: the line is
		// the lookup's.
		{"__index returns the wait", `local t = setmetatable({}, { __index = function() return npc:wait(0.1) end })
local x = t.a`, "4: " + metamethod},
		{"pcall inside __lt", mt2("__lt", "pcall(coroutine.yield)") + "local x = a < b", "3: " + metamethod},
		{"gsub callback", `local s = string.gsub("ab", "%w", function(c) coroutine.yield() return c end)`,
			"3: cannot wait or yield inside a callback of string.gsub"},
		{"xpcall handler", `xpcall(function() error("x") end, function(m) coroutine.yield() return m end)`,
			""}, // the sandbox's xpcall runs its handler in the body's own VM loop
		{"__call in a tail call", `local t = setmetatable({}, { __call = function() npc:wait(0.1) end })
local function f() return t() end
f()`, ""},
		{"pcall of a callable table", `local t = setmetatable({}, { __call = function() npc:wait(0.1) end })
assert(pcall(t))`, ""},
		{"callable table as for iterator", `for x in setmetatable({}, { __call = function(_, _, i) if i then return nil end coroutine.yield() return 1 end }) do end`,
			"3: " + metamethod},
		{"coroutine.wrap as __index", `local t = setmetatable({}, { __index = coroutine.wrap(function() while true do coroutine.yield(1) end end) })
local x = t.a + t.b
npc:wait(0.1)`, ""},
		// A wait inside the script's own coroutine yields to that
		// coroutine's resumer, in the same VM loop: it breaks nothing.
		{"wait in a wrapped coroutine inside __index", `local t = setmetatable({}, { __index = function()
  return coroutine.wrap(function() npc:wait(0.1) return 1 end)()
end })
local x = t.a`, ""},
		{"wrapped waiting coroutine as __index", `local t = setmetatable({}, { __index = coroutine.wrap(function() npc:wait(0.1) return 1 end) })
local x = t.a`, ""},
		{"wait in a wrapped coroutine in a sort comparator", `table.sort({3, 2, 1}, function(a, b)
  return coroutine.wrap(function() npc:wait(0.1) return a < b end)()
end)`, ""},
		{"deep recursion then wait", `local function r(n) if n == 0 then npc:wait(0.1) return 0 end return 1 + r(n - 1) end
assert(r(190) == 190)`, ""},
		{"deep recursion inside __index", `local function r(n) if n == 0 then coroutine.yield() return 0 end return 1 + r(n - 1) end
local t = setmetatable({}, { __index = function() return r(190) end })
local x = t.a`, "3: " + metamethod},
	}
	runYieldCases(t, cases)
}
