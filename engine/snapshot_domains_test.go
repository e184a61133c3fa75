package engine

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestRestoreTakesADomainListedTwiceButNotTwoOfOneName: the same domain
// listed twice in RestoreOptions.Domains is one domain; two different
// domains of one name (one per worker's runtime) are refused unless
// RestoreOptions.Domain picks each agent's.
func TestRestoreTakesADomainListedTwiceButNotTwoOfOneName(t *testing.T) {
	role := RoleSpec{Name: "Twin", State: []Var{{"x", expr.NumberValue(0)}}}
	d, err := Compile(role)
	require.NoError(t, err)
	other, err := Compile(role)
	require.NoError(t, err)
	w := NewWorld(1)
	w.Add(NewAgent("a", d))
	var buf bytes.Buffer
	require.NoError(t, w.Snapshot(&buf))

	r, err := Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d, nil, d}})
	require.NoError(t, err)
	assert.Same(t, d, r.Agents[0].Domain)

	_, err = Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d, other}})
	assert.EqualError(t, err, `engine: restore: RestoreOptions.Domains has two domains named "Twin" (one per worker's runtime?); give RestoreOptions.Domain, which returns the domain of the worker each agent is pinned to`)

	r, err = Restore(bytes.NewReader(buf.Bytes()), RestoreOptions{Domains: []*Domain{d, other},
		Domain: func(string, int, string) (*Domain, error) { return other, nil }})
	require.NoError(t, err)
	assert.Same(t, other, r.Agents[0].Domain)
}
