-- A small typed pipeline whose first draft double-books a slot, for the
-- tests of post promises and can_rerun. make(can_rerun) returns the role.
return function(name, can_rerun)
  return {
    name = name,
    state = { UserInput = true, drafts = 0 },
    conditions = {
      { name = "noDoubleBooking", test = function(npc)
          local d = npc.facts.DraftSchedule
          return d ~= nil and d.slots[1] ~= d.slots[2]
        end },
    },
    actions = {
      { name = "research", inputs = { "UserInput" }, output = "ResearchedSessions",
        run = function(npc) npc.facts.ResearchedSessions = { "s1", "s2", "s3" } end },
      { name = "assembleSchedule", inputs = { "ResearchedSessions" }, output = "DraftSchedule",
        post = { "noDoubleBooking" }, can_rerun = can_rerun,
        run = function(npc)
          npc.state.drafts = npc.state.drafts + 1
          if npc.state.drafts == 1 then
            npc.facts.DraftSchedule = { slots = { 1, 1 } } -- the first draft double-books
          else
            npc.facts.DraftSchedule = { slots = { 1, 2 } }
          end
        end },
      { name = "confirmSchedule", inputs = { "DraftSchedule" }, output = "PersonalSchedule",
        pre = "noDoubleBooking", achieves_goal = "schedule",
        run = function(npc) npc.facts.PersonalSchedule = npc.facts.DraftSchedule end },
    },
  }
end
