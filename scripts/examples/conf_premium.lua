-- ConfPlannerAgent with a second goal that needs the secured briefing:
-- without the authority conf:premium the goal fails, naming it; with
-- `--authority conf:premium` the briefing is planned after the schedule.
--
--   moonmind plan scripts/examples/conf_premium.lua
--   moonmind plan scripts/examples/conf_premium.lua --authority conf:premium
return {
  name = "ConfPremiumAgent",
  extends = "conf_planner",
  goals = {
    { name = "briefing", condition = "PremiumBriefing", priority = "low" },
  },
}
