package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryProblemAtOnce: a misspelt variable in a goal's condition is
// reported with the role's other problems (here a consideration's input,
// which stops the compile), in order of position, where it used to show
// only once everything else compiled.
func TestEveryProblemAtOnce(t *testing.T) {
	file, got := loadErrors(t, `return {
  name = "Dog",
  state = { hunger = 10, energy = 3 },
  goals = { { name = "fed", condition = "hungr < 30" } },
  actions = {
    { name = "eat", effects = "hunger = 0", fulfills = { "fed" } },
    { name = "nap", effects = "energy = 10", pre = "awake",
      considerations = { { input = "energi", min = 0, max = 10 } } },
  },
}
`)
	assert.Equal(t, []string{
		file + `:4:42: goal "fed" condition reads "hungr", which no state variable, effect or named condition provides (did you mean "hunger"?)`,
		file + `:7:53: action "nap" pre reads "awake", which no state variable, effect or named condition provides`,
		file + `:8:28: action "nap" consideration "energi": input "energi" is no state variable (did you mean "energy"?)`,
	}, got)
}

// TestNoUndeclaredReadsWhenAnEffectFails: when an effect does not
// compile, what it would write is not known, so no read is reported as
// provided by nothing (the effect's own error is).
func TestNoUndeclaredReadsWhenAnEffectFails(t *testing.T) {
	file, got := loadErrors(t, `return {
  name = "Dog",
  state = { hunger = 10 },
  goals = { { name = "fed", condition = "full" } },
  actions = { { name = "eat", effects = "full = true, hunger = hunger +" } },
}
`)
	assert.Equal(t, []string{
		file + `:5:72: action "eat" effects: col 31: expected a value (a number, a string, true, false, nil or a name), found end of text in "full = true, hunger = hunger +"`,
	}, got)
}
