return { name = "B", extends = "a" }
