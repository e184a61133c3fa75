-- want: testdata/hostile/load_error_nil.lua:3: an error value that is a nil, not a message (raise errors with a string)
-- error(nil) at a file's top level.
error(nil)
return { name = "Hostile" }
