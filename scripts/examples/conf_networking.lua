-- Embabel's ConfNetworkingAgent: a separate agent whose one goal
-- is a NetworkingPlan. It declares its own upstream actions, as Embabel's
-- does (an Embabel agent plans only with its own actions); in moonmind a
-- role could extend another instead (see docs/semantics.md, "Typed GOAP").
--
--   moonmind plan scripts/examples/conf_networking.lua
--   -> extractAttendeeProfile, loadCatalog, shortlistSessions,
--      researchSessions, planNetworking

local people = { go = "Rob", ai = "Ada", games = "Sid", lua = "Roberto" }

return {
  name = "ConfNetworkingAgent",
  description = "Suggest who an attendee should meet at the conference",
  state = { UserInput = true },
  actions = {
    { name = "extractAttendeeProfile", inputs = { "UserInput" }, output = "AttendeeProfile",
      run = function(npc) npc.facts.AttendeeProfile = { interests = { "go", "ai" } } end },
    { name = "loadCatalog", inputs = { "AttendeeProfile" }, output = "SessionCatalog",
      run = function(npc)
        npc.facts.SessionCatalog = { sessions = { { id = "s1", tags = { "go" } }, { id = "s3", tags = { "ai" } } } }
      end },
    { name = "shortlistSessions", inputs = { "AttendeeProfile", "SessionCatalog" }, output = "CandidateSessions",
      run = function(npc) npc.facts.CandidateSessions = { sessions = npc.facts.SessionCatalog.sessions } end },
    { name = "researchSessions", inputs = { "CandidateSessions" }, output = "ResearchedSessions",
      run = function(npc) npc.facts.ResearchedSessions = { sessions = npc.facts.CandidateSessions.sessions } end },
    { name = "planNetworking", inputs = { "AttendeeProfile", "ResearchedSessions" }, output = "NetworkingPlan",
      achieves_goal = "networking",
      run = function(npc)
        local meet = {}
        for _, s in ipairs(npc.facts.ResearchedSessions.sessions) do
          for _, tag in ipairs(s.tags) do meet[#meet + 1] = people[tag] end
        end
        npc.facts.NetworkingPlan = { peopleToMeet = meet }
      end },
  },
}
