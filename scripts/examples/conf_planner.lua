-- Embabel's ConfPlannerAgent as a moonmind role: typed inputs and
-- outputs order the actions, named conditions gate them, and the goal is
-- the output of the action that achieves it. Embabel's LLM calls are
-- stood in for by plain Lua over a small catalog, so the plan can be run
-- and tested without a model. (Embabel's Ai input is the model handle;
-- here it is the game's business, so it is no type.)
--
--   moonmind plan scripts/examples/conf_planner.lua
--   -> extractAttendeeProfile, loadCatalog, shortlistSessions,
--      researchSessions, assembleSchedule, confirmSchedule
--
-- premiumBriefing needs the authority conf:premium (Embabel's
-- @SecureAgentTool hasAuthority('conf:premium')); nothing here needs its
-- output, so it never enters the schedule plan. See conf_premium.lua.

local catalog = {
  { id = "s1", title = "Go generics in depth", tags = { "go" }, slot = 1 },
  { id = "s2", title = "Lua in games", tags = { "lua", "games" }, slot = 1 },
  { id = "s3", title = "GOAP for designers", tags = { "games", "ai" }, slot = 2 },
  { id = "s4", title = "Kotlin coroutines", tags = { "kotlin" }, slot = 2 },
  { id = "s5", title = "Planning with types", tags = { "ai", "go" }, slot = 3 },
}

local function has(list, x)
  for _, v in ipairs(list) do
    if v == x then return true end
  end
  return false
end

return {
  name = "ConfPlannerAgent",
  description = "Produce a conflict-free personal UberConf schedule from a free-text request",
  -- The request is given: a UserInput exists from the start.
  state = { UserInput = true },
  conditions = {
    { name = "hasCandidates", test = function(npc)
        local c = npc.facts.CandidateSessions
        return c ~= nil and #c.sessions > 0
      end },
    { name = "noDoubleBooking", test = function(npc)
        local d = npc.facts.DraftSchedule
        if d == nil then return false end
        local taken = {}
        for _, item in ipairs(d.items) do
          if taken[item.slot] then return false end
          taken[item.slot] = true
        end
        return true
      end },
  },
  actions = {
    { name = "extractAttendeeProfile", inputs = { "UserInput" }, output = "AttendeeProfile",
      run = function(npc)
        npc.facts.AttendeeProfile = { interests = { "go", "ai", "games" }, avoid = { "s4" } }
      end },
    { name = "loadCatalog", inputs = { "AttendeeProfile" }, output = "SessionCatalog",
      run = function(npc) npc.facts.SessionCatalog = { sessions = catalog } end },
    { name = "shortlistSessions", inputs = { "AttendeeProfile", "SessionCatalog" },
      output = "CandidateSessions", post = { "hasCandidates" },
      run = function(npc)
        local profile, out = npc.facts.AttendeeProfile, {}
        for _, s in ipairs(npc.facts.SessionCatalog.sessions) do
          local wanted = false
          for _, tag in ipairs(s.tags) do wanted = wanted or has(profile.interests, tag) end
          if wanted and not has(profile.avoid, s.id) then out[#out + 1] = s end
        end
        npc.facts.CandidateSessions = { sessions = out }
      end },
    { name = "researchSessions", inputs = { "CandidateSessions" }, output = "ResearchedSessions",
      run = function(npc)
        local profile, insights = npc.facts.AttendeeProfile, {}
        for _, s in ipairs(npc.facts.CandidateSessions.sessions) do
          local score = 0
          for _, tag in ipairs(s.tags) do
            if has(profile.interests, tag) then score = score + 1 end
          end
          insights[#insights + 1] = { session = s, score = score }
        end
        npc.facts.ResearchedSessions = { insights = insights }
      end },
    { name = "assembleSchedule", inputs = { "AttendeeProfile", "ResearchedSessions" },
      output = "DraftSchedule", pre = "hasCandidates", post = { "noDoubleBooking" }, can_rerun = true,
      run = function(npc)
        local best = {}
        for _, ins in ipairs(npc.facts.ResearchedSessions.insights) do
          local slot = ins.session.slot
          if best[slot] == nil or ins.score > best[slot].score then best[slot] = ins end
        end
        local items = {}
        for slot = 1, 3 do
          if best[slot] then items[#items + 1] = { id = best[slot].session.id, slot = slot } end
        end
        npc.facts.DraftSchedule = { items = items }
      end },
    { name = "confirmSchedule", inputs = { "DraftSchedule" }, output = "PersonalSchedule",
      pre = "noDoubleBooking", achieves_goal = "schedule",
      run = function(npc) npc.facts.PersonalSchedule = { items = npc.facts.DraftSchedule.items } end },
    { name = "premiumBriefing", inputs = { "ResearchedSessions" }, output = "PremiumBriefing",
      restricted = "conf:premium",
      run = function(npc)
        npc.facts.PremiumBriefing = { sessions = #npc.facts.ResearchedSessions.insights }
      end },
  },
}
