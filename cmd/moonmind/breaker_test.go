package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A long chain of goals and actions: every chained action is relevant to
// some goal through the whole chain of preconditions, and the one action
// nothing needs is the only finding.
func TestCheckLongChainFindsOnlyTheSpareAction(t *testing.T) {
	f := filepath.Join("testdata", "breaker", "long_chain.lua")
	out, errOut, code := runMain("check", f)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, []string{
		f + ": ok: role LongChain, 61 state variables, 60 goals, 61 actions, 0 sensors, decide goap",
		f + `:12:27: note: action "spare": no goal can use it: it fulfills no goal, assigns no variable a goal reads, and helps no action that does (decide is goap, so it never runs)`,
	}, strings.Split(strings.TrimSpace(out), "\n"))
}
