package luabind

import (
	"path/filepath"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRestrictedNamesAnAuthority(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	d, err := rt.LoadDomain("secured.lua")
	require.NoError(t, err)
	rob, beg, work := d.Action("Rob"), d.Action("Beg"), d.Action("Work")
	assert.Equal(t, "crime", rob.Authority)
	assert.False(t, rob.Restricted, "a string names an authority; it is not the always-refused flag")
	assert.True(t, beg.Restricted)
	assert.Equal(t, "", beg.Authority)
	assert.False(t, work.Secured())

	_, err = rt.LoadDomain("bad_restricted.lua")
	require.Error(t, err)
	f := filepath.Join("testdata", "decisions", "bad_restricted.lua")
	assert.Contains(t, err.Error(), f+`:5:46: action "Rob": restricted must name an authority, not the empty string`)
	assert.Contains(t, err.Error(), f+`:6:46: action "Beg": restricted must be true, false or the name of an authority, not number`)
}

func TestFulfillsFromLua(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	d, err := rt.LoadDomain("pray.lua")
	require.NoError(t, err)
	p, err := engine.NewPlanner(d).Plan(d.NewState())
	require.NoError(t, err)
	assert.Equal(t, []string{"Pray"}, p.Names(), "Pray fulfills warm: one step, cost 1, against Chop, Chop, Light at 3")

	w := engine.NewWorld(1)
	a := engine.NewAgent("p", d)
	w.Add(a)
	var got []string
	w.OnEvent = func(e engine.Event) { got = append(got, e.Kind.String()+" "+e.Action) }
	for i := 0; i < 5; i++ {
		w.Tick(0.1)
	}
	assert.Equal(t, []string{"plan ", "start Pray", "finish Pray", "idle "}, got)
	assert.Equal(t, engine.BoolValue(true), a.Get("fire"))
}

func TestSensorDtFromLua(t *testing.T) {
	rt := NewRuntime(Options{ScriptsDir: filepath.Join("testdata", "decisions")})
	defer rt.Close()
	d, err := rt.LoadDomain("clock.lua")
	require.NoError(t, err)
	w := engine.NewWorld(1)
	a := engine.NewAgent("c", d)
	w.Add(a)
	for i := 0; i < 30; i++ {
		w.Tick(0.1)
	}
	played, _ := a.Get("played").AsNumber()
	looked, _ := a.Get("looked").AsNumber()
	assert.InDelta(t, 3.0, played, 1e-9, "an every-tick sensor summing its dt reads 3 s after 3 s of play")
	assert.InDelta(t, 2.6, looked, 1e-9, "runs at t = 0 (0.1 s), 0.5, 1, 1.5, 2, 2.5 (0.5 s each)")
}
