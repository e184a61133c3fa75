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
	f := filepath.Join("testdata", "limits", "long_chain.lua")
	out, errOut, code := runMain("check", f)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, []string{
		f + ": ok: role LongChain, 61 state variables, 60 goals, 61 actions, 0 sensors, 0 plans, decide goap",
		f + `:12:27: note: action "spare": no goal can use it: it fulfills no goal, assigns no variable a goal reads, and helps no action that does (decide is goap, so it never runs)`,
	}, strings.Split(strings.TrimSpace(out), "\n"))
}

// Roles that loaded but printed nonsense: a cost of math.huge (a plan
// cost +Inf) and names with control characters (trace lines split). The
// names' positions are those of the goals and actions lists: the loader
// finds a name's line by its text, which a control character hides.
func TestCheckRefusesHugeCostsAndControlCharacters(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"math.huge cost", "huge_cost.lua", []string{
			`:8:7: error: action "step" cost must be at most 2^53 - 1 = 9007199254740991 (a plan's cost is the sum of its steps'), not 1.7976931348623157e+308`,
		}},
		{"control characters", "control_name.lua", []string{
			`:6:3: error: goal "leave\tnow": the name holds the control character U+0009; names are printed on one line in plans and traces`,
			`:7:3: error: action "open\ndoor": the name holds the control character U+000A; names are printed on one line in plans and traces`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join("testdata", "limits", tc.file)
			out, _, code := runMain("check", f)
			assert.Equal(t, 1, code)
			var want []string
			for _, w := range tc.want {
				want = append(want, f+w)
			}
			assert.Equal(t, want, strings.Split(strings.TrimSpace(out), "\n"))
			_, errOut, code := runMain("plan", f)
			assert.Equal(t, 2, code, "the role does not load")
			assert.Contains(t, errOut, f+strings.Replace(tc.want[0], ": error: ", ": ", 1))
		})
	}
}

// graph --format mermaid quotes a role name YAML would misread and writes
// "<" and "&" of names as Mermaid entities.
func TestGraphMermaidEscapesMarkupInNames(t *testing.T) {
	out, errOut, code := runMain("graph", filepath.Join("testdata", "limits", "markup_names.lua"), "--format", "mermaid")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(out, "\n")
	require.Greater(t, len(lines), 7)
	assert.Equal(t, []string{"---", `title: "Squad #2: red"`, "---", "flowchart LR"}, lines[:4])
	assert.Contains(t, lines, `  n3("#lt;b>#amp;go (cost 1)<br/>x = 2")`)
}
