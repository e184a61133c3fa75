return { name = "A", extends = "b" }
