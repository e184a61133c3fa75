return {
  name = "x",
  actions = {
