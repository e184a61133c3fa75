-- Extends llm_role with a model role of its own, which the parent's
-- actions without an llm_model ask too.
return { name = "RoleModelOverride", extends = "llm_role", llm_model = "best" }
