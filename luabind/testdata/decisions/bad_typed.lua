return {
  name = "BadTyped",
  conditions = { { name = "hasCandidates", test = function() return true end } },
  actions = {
    { name = "shortlist", inputs = { "AttendeeProfil" }, output = "CandidateSessions", post = { "hasCandidate" } },
    { name = "profile", output = "AttendeeProfile" , inputs = { 3 } },
    { name = "finish", achieves_goal = "done" },
  },
}
