package luabind

import (
	"math"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

var lodKeys = []string{"rates"}

// lod reads the role's level of detail, lod = { rates = { 60, 10, 2 } }:
// its think rates, in thinks per second, for levels 0, 1, 2, ... of a
// world's level of detail (engine.LOD), each a positive finite number.
func (rd *roleReader) lod(t *lua.LTable, spec *engine.RoleSpec, top engine.Pos) {
	lt, at := rd.settings(t, "lod", lodKeys, "{ rates = { 60, 10, 2 } }", top)
	if lt == nil {
		return
	}
	rv := lt.RawGetString("rates")
	rt, ok := rv.(*lua.LTable)
	if !ok {
		rd.add(rd.find(at, `rates\s*=`), "role: lod: rates must be a list of thinks per second, one per level (such as { 60, 10, 2 }), not "+rv.Type().String())
		return
	}
	ratesAt := rd.find(at, `rates\s*=`)
	n := rt.Len()
	if n == 0 {
		rd.add(ratesAt, "role: lod: rates is empty: give one rate per level, the most important first (such as { 60, 10, 2 })")
		return
	}
	rates := make([]float64, 0, n)
	for i := 1; i <= n; i++ {
		num, ok := rt.RawGetInt(i).(lua.LNumber)
		if r := float64(num); !ok || !(r > 0) || math.IsInf(r, 0) {
			rd.add(ratesAt, "role: lod: rate "+strconv.Itoa(i)+" must be a positive number of thinks per second, not "+luaShow(rt.RawGetInt(i)))
			continue
		}
		rates = append(rates, float64(num))
	}
	if len(rates) == n {
		spec.ThinkRates = rates
	}
}

// luaShow is a value for a message: a number as written, else its type.
func luaShow(v lua.LValue) string {
	if n, ok := v.(lua.LNumber); ok {
		return strconv.FormatFloat(float64(n), 'g', -1, 64)
	}
	return v.Type().String()
}

// settings returns the role's table of settings under key (lod, memory),
// its keys checked against keys, and where it is; nil when the role has
// none, or (with a problem naming example) when it is not a table.
func (rd *roleReader) settings(t *lua.LTable, key string, keys []string, example string, top engine.Pos) (*lua.LTable, engine.Pos) {
	v := t.RawGetString(key)
	if v == lua.LNil {
		return nil, top
	}
	at := rd.find(top, key+`\s*=`)
	st, ok := v.(*lua.LTable)
	if !ok {
		rd.add(at, "role: "+key+" must be a table such as "+example+", not "+v.Type().String())
		return nil, at
	}
	rd.checkKeys(st, keys, "role: "+key, at)
	return st, at
}
