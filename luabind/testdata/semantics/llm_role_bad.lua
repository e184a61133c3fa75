return {
  name = "RoleModelBad",
  llm_model = 5,
}
