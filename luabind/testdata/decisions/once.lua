return require("schedule_lib")("Once", false)
