-- One Lua consideration whose Go twin lives in load_consider_test.go: both must
-- give the same pick in every state.
return {
  name = "Gunner",
  decide = "utility",
  state = { ammo = 30, health = 100, distance = 10 },
  considerations = {
    function(action, state)
      if action.name == "attack" then
        return (state.ammo / 30) * (state.health / 100) * (1 - state.distance / 50)
      elseif action.name == "cover" then
        return 1 - state.health / 100
      end
      return 0.25
    end,
  },
  actions = {
    { name = "attack", pre = "ammo > 0" },
    { name = "cover" },
    { name = "wait" },
  },
}
