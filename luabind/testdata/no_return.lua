-- A role table built and then dropped: the file forgot its return.
local mm = require("moonmind")
mm.role {
  name = "Forgetful",
  state = { done = false },
}
