-- A channel between the agents of one role, for the isolation tests: a
-- role file's top-level locals are constants once it has loaded, but a
-- module's own locals are not frozen, so box() hands every agent of the
-- role the same writable table. The tests use it to pass one agent's
-- npc, coroutines and handles to another and check that the sandbox
-- refuses them there.
local box = {}
return { box = function() return box end }
