-- A syntax error: the file does not load; the error names file:line:col.
return {
  name = "Syntax",
  state = { done = false }
  goals = {},
}
