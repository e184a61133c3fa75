return require("schedule_lib")("Rerun", true)
