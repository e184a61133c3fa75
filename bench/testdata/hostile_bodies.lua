-- Runaway bodies, one action each, for BenchmarkHostileResume: every one
-- spends its whole budget (or its memory limit, or a pattern limit) in its
-- first resume, through a different built-in.
local big = string.rep("a", 40000)
local chunks = {}
for i = 1, 1000 do chunks[i] = string.rep("c", 1000) end
local numbers = {}
for i = 1, 20000 do numbers[i] = (i * 7919) % 20011 end

local bodies = {
  -- plain VM instructions: the reference
  loop = function(npc) while true do end end,
  -- 16 MiB strings built and dropped
  rep = function(npc) while true do local s = string.rep("x", 16 * 1024 * 1024 - 1) end end,
  -- the .. operator on a 1 MiB string
  concat = function(npc)
    local s = string.rep("x", 1024 * 1024)
    while true do local t = s .. s end
  end,
  -- table.concat of 1,000 strings of 1,000 bytes
  tconcat = function(npc) while true do local s = table.concat(chunks) end end,
  -- string.format with the widest width it allows
  format = function(npc) while true do local s = string.format("%99s%99s", "x", "y") end end,
  -- gsub replacing every byte of 40,000
  gsub = function(npc) while true do local s = big:gsub("a", "b") end end,
  -- gsub with a callback per match
  gsubfn = function(npc) while true do local s = big:gsub("a", function(c) return c end) end end,
  -- a lazy repetition that fails from every start position
  find_lazy = function(npc) while true do local i = big:find(".-b") end end,
  -- a greedy capture that backtracks from every start position
  match_greedy = function(npc) while true do local m = big:match("(.*)b") end end,
  -- gmatch over every run of a's, then a failing tail
  gmatch = function(npc) while true do for w in big:gmatch("a*a*b") do end end end,
  -- nested lazy repetitions on a short subject (the backtracking estimate)
  find_nested = function(npc)
    local s = string.rep("a", 60)
    while true do local i = s:find(".-.-.-.-b") end
  end,
  -- one assignment far past the end of fresh lists
  huge_index = function(npc) while true do local t = {} t[240000] = 1 end end,
  -- table.insert far past the end, through rawset too
  rawset_huge = function(npc) while true do local t = {} rawset(t, 240000, 1) end end,
  -- table.sort of 20,000 numbers with a Lua comparator
  sort = function(npc)
    while true do
      local t = { (table.unpack or unpack)(numbers) }
      table.sort(t, function(a, b) return a > b end)
    end
  end,
  -- unpack of 20,000 values into a new table
  unpack_table = function(npc)
    local up = table.unpack or unpack
    while true do local t = { up(numbers) } end
  end,
  -- unpack of 20,000 values counted by select
  unpack = function(npc)
    local up = table.unpack or unpack
    while true do local n = select("#", up(numbers)) end
  end,
  -- a table constructor of 20,000 values from a vararg function
  vararg = function(npc)
    local function pack(...) return { ... } end
    local up = table.unpack or unpack
    while true do local t = pack(up(numbers)) end
  end,
  -- string.byte of 40,000 bytes
  byte = function(npc) while true do local t = { big:byte(1, -1) } end end,
  -- upper, reverse and sub of 40,000 bytes
  upper = function(npc) while true do local s = big:upper() end end,
  reverse = function(npc) while true do local s = big:reverse() end end,
  sub = function(npc) while true do local s = big:sub(2) end end,
  -- coroutines created and dropped
  coroutines = function(npc) while true do local co = coroutine.create(function() end) end end,
  -- pcall of a function that fails: each drops its worker coroutine
  pcall_error = function(npc) while true do pcall(error, "x") end end,
  -- memory bomb in one resume: 1 MB strings kept
  membomb = function(npc)
    local keep = {}
    for i = 1, 1000000 do keep[i] = string.rep("y", 1000000) .. i end
  end,
  -- memory bomb of small tables in one resume
  memtables = function(npc)
    local keep, n = {}, 0
    while true do n = n + 1 keep[n] = { n, n + 1 } end
  end,
  -- a method looked up and not called, in a loop
  method_lookup = function(npc) while true do local f = npc.wait end end,
  -- a host call in a loop (npc.state reads and writes)
  host = function(npc)
    while true do npc.state.n = npc.state.n + 1 end
  end,
}

local names = {}
for name in pairs(bodies) do names[#names + 1] = name end
table.sort(names)
local actions = {}
for _, name in ipairs(names) do
  actions[#actions + 1] = { name = name, effects = "done = true", run = bodies[name] }
end

return {
  name = "HostileBodies",
  state = { done = false, n = 0 },
  goals = { { name = "finished", condition = "done" } },
  actions = actions,
}
