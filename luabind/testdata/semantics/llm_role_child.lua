-- Extends llm_role and sets no llm_model: its agents ask the parent's.
return { name = "RoleModelChild", extends = "llm_role" }
