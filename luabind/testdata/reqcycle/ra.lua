local b = require("rb")
return { name = "A" }
