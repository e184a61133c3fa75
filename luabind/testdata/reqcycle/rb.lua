local a = require("ra")
return {}
