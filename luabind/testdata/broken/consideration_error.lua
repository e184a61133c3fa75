-- A runtime error in a consideration scores 0 and is recorded.
return {
  name = "ConsiderationError",
  decide = "utility",
  state = { x = 1 },
  actions = {
    {
      name = "think",
      considerations = {
        function(action, state)
          return state.x + {}
        end,
      },
      run = function() end,
    },
  },
}
