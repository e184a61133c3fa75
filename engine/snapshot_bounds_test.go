package engine_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine"
)

// TestRestoreRefusesFieldsPastTheirBounds damages one field of a good
// snapshot at a time; each is refused with an error naming it.
func TestRestoreRefusesFieldsPastTheirBounds(t *testing.T) {
	w, domains := newTestWorld(t, 1, 0)
	run(w, 5)
	var good bytes.Buffer
	require.NoError(t, w.Snapshot(&good))
	safe := quickDomain(t) // the same role, loaded as luabind loads scripts
	safe.SafeNumbers = true

	damage := func(f func(agent map[string]any)) string {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(good.Bytes(), &doc))
		f(doc["agents"].([]any)[0].(map[string]any))
		out, err := json.Marshal(doc)
		require.NoError(t, err)
		return string(out)
	}
	damageWorld := func(f func(world map[string]any)) string {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(good.Bytes(), &doc))
		f(doc)
		out, err := json.Marshal(doc)
		require.NoError(t, err)
		return string(out)
	}
	setState := func(name string, v map[string]any) func(map[string]any) {
		return func(a map[string]any) {
			for _, s := range a["state"].([]any) {
				if s := s.(map[string]any); s["name"] == name {
					delete(s, "number")
					for k, x := range v {
						s[k] = x
					}
				}
			}
		}
	}
	tests := []struct {
		name, doc, err, reason string
		domain                 *engine.Domain
		maxBytes               int64
	}{
		{name: "budget", reason: "a budget this large would make a tick search for minutes",
			doc: damage(func(a map[string]any) { a["budget"] = 2e9 }),
			err: "engine: restore: agent foragera: budget 2000000000 is more than 1000000 node expansions, the most a snapshot may give"},
		{name: "long string", reason: "a state string longer than a script could build",
			doc: damage(setState("food", map[string]any{"string": strings.Repeat("x", 16<<20+1)})),
			err: "engine: restore: agent foragera: state food: a string of 16777217 bytes is longer than 16777216, the longest a snapshot may hold"},
		{name: "NaN", reason: "no script can store NaN", domain: safe,
			doc: damage(setState("food", map[string]any{"special": "NaN"})),
			err: "engine: restore: agent foragera: state food: NaN cannot be stored in state"},
		{name: "1e300", reason: "nor a number that may have lost digits", domain: safe,
			doc: damage(setState("gold", map[string]any{"number": 1e300})),
			err: "engine: restore: agent foragera: state gold: 1e+300 is beyond 2^53 - 1 (9007199254740991), so it may not be exact in a float64; keep big ids as strings"},
		{name: "too long", reason: "the snapshot is read no further than MaxBytes", maxBytes: 100,
			doc: good.String(),
			err: "engine: restore: the snapshot is longer than 100 bytes (RestoreOptions.MaxBytes)"},
		{name: "cut at MaxBytes", reason: "a snapshot that ends, cut short, at exactly MaxBytes is not longer than it", maxBytes: 100,
			doc: good.String()[:100],
			err: "engine: restore: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := domains[0]
			if tt.domain != nil {
				d = tt.domain
			}
			_, err := engine.Restore(strings.NewReader(tt.doc), engine.RestoreOptions{Domains: []*engine.Domain{d}, MaxBytes: tt.maxBytes})
			require.Error(t, err, tt.reason)
			assert.Equal(t, tt.err, err.Error(), tt.reason)
			assert.ErrorIs(t, err, engine.ErrSnapshot)
		})
	}

	t.Run("at the bounds", func(t *testing.T) {
		for name, doc := range map[string]string{
			"the largest budget":                 damage(func(a map[string]any) { a["budget"] = 1e6 }),
			"the longest string":                 damage(setState("food", map[string]any{"string": strings.Repeat("x", 16<<20)})),
			"the latest time":                    damage(func(a map[string]any) { a["time"] = 1e12 }),
			"a recorder of size 0 (the default)": damage(func(a map[string]any) { a["recorder"].(map[string]any)["size"] = 0 }),
			"the largest recorder":               damage(func(a map[string]any) { a["recorder"].(map[string]any)["size"] = 1 << 20 }),
			"the most workers":                   damageWorld(func(w map[string]any) { w["workers"] = 1024 }),
			"the latest level-of-detail time":    damageWorld(func(w map[string]any) { w["lodTime"] = 1e12 }),
		} {
			_, err := engine.Restore(strings.NewReader(doc), engine.RestoreOptions{Domains: domains})
			assert.NoError(t, err, name)
		}
	})

	t.Run("within bounds", func(t *testing.T) {
		inf := damage(setState("gold", map[string]any{"special": "+Inf"}))
		r, err := engine.Restore(strings.NewReader(inf), engine.RestoreOptions{Domains: []*engine.Domain{safe}, MaxBytes: int64(len(inf))})
		require.NoError(t, err, "infinity is a number scripts may store, and the snapshot is exactly MaxBytes long")
		assert.Equal(t, "+Inf", r.Agents[0].Get("gold").String())
		nan := damage(setState("food", map[string]any{"special": "NaN"}))
		_, err = engine.Restore(strings.NewReader(nan), engine.RestoreOptions{Domains: domains})
		assert.NoError(t, err, "a domain without SafeNumbers keeps what Go code stored")
	})
}
