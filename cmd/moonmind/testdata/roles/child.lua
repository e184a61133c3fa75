return {
  name = "Child",
  extends = "base",
  state = { wood = 1 },
}
