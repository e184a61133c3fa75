-- Names that Mermaid would read as markup or YAML: a role "Squad #2: red"
-- made the front matter a mapping with a comment, and "<b>" in an action's
-- name turned the rest of its label bold.
return {
  name = "Squad #2: red",
  state = { x = 0 },
  goals = { { name = "win", condition = "x > 1" } },
  actions = {
    { name = "<b>&go", effects = "x = 2" },
  },
}
