-- critique promises reportSatisfactory but only looks; redoResearch, the
-- dearer remedy, keeps the same promise.
return {
  name = "Writer",
  state = { Topic = true },
  conditions = {
    { name = "reportSatisfactory", test = function(npc)
        local r = npc.facts.Report
        return r ~= nil and r.quality >= 2
      end },
  },
  actions = {
    { name = "research", inputs = { "Topic" }, output = "Notes",
      run = function(npc) npc.facts.Notes = { depth = 1 } end },
    { name = "writeReport", inputs = { "Notes" }, output = "Report",
      run = function(npc) npc.facts.Report = { quality = npc.facts.Notes.depth } end },
    { name = "critique", inputs = { "Report" }, post = { "reportSatisfactory" },
      run = function(npc) local q = npc.facts.Report.quality end },
    { name = "redoResearch", inputs = { "Report" }, post = { "reportSatisfactory" }, cost = 3,
      run = function(npc) npc.facts.Report = { quality = 2 } end },
    { name = "publish", inputs = { "Report" }, pre = "reportSatisfactory", output = "Published",
      achieves_goal = "published",
      run = function(npc) npc.facts.Published = npc.facts.Report end },
  },
}
