-- The trader of examples/embed: a role written in Lua. It buys grain at
-- the market through the game's host methods and carries it to town.
return {
  name = "Trader",
  -- Goals first; when the cart is loaded, the utility planner picks.
  decide = "hybrid",
  state = { coins = 10, goods = 0, market_grain = 0 },
  -- The game restocks market_grain from its stall every tick, which
  -- `moonmind check` cannot see: it would say buying can never start.
  check_ignore = { ["unreachable:loaded"] = "the game sets market_grain every tick" },
  goals = {
    { name = "loaded", condition = "goods >= 2", priority = "high" },
  },
  actions = {
    { name = "buy", pre = "market_grain > 0 && coins >= 2",
      effects = "goods = goods + 1, coins = coins - 2, market_grain = market_grain - 1",
      fulfills = { "loaded" },
      run = function(npc)
        -- npc:buy is a host method: it answers with what it did.
        local ok, price = npc:buy("grain")
        if not ok then
          error("the stall was empty")
        end
        npc.state.goods = npc.state.goods + 1
        npc.state.coins = npc.state.coins - price
        npc.state.market_grain = npc.state.market_grain - 1
      end },
    { name = "travel", pre = "goods >= 2", effects = "goods = 0, coins = coins + 6",
      utility = { value = 50 },
      run = function(npc)
        npc:say("off to town with " .. npc.state.goods .. " sacks")
        npc:wait(0.5) -- half a second of game time: 5 ticks at 10 per second
        npc.state.coins = npc.state.coins + 3 * npc.state.goods
        npc.state.goods = 0
      end },
  },
}
