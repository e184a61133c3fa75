package luabind

import (
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
)

// maxFactDepth bounds how deeply nested a saved Lua fact may be.
const maxFactDepth = 16

// luaFacts is the engine.FactCodec of every domain a Runtime loads: it
// saves typed facts (npc.facts) for World.Snapshot and brings them back
// into the runtime for Restore. A Lua fact is saved as JSON: booleans,
// finite numbers, strings, and tables whose keys are all strings (an
// object) or that are sequences 1..n (an array), at most 16 deep; a
// function, userdata, coroutine, table with a metatable or with other
// keys, or NaN or an infinity is an error naming what it met. Restored
// tables are new tables of the runtime; pairs visits a restored object in
// the order of its keys. A Go value set with Agent.SetFact is saved with
// encoding/json and restored as engine.JSONFacts{} restores it (objects
// as map[string]any).
type luaFacts struct{ r *Runtime }

// factJSON is one saved fact: Lua holds a Lua value's JSON, Go a Go
// value's.
type factJSON struct {
	Lua json.RawMessage `json:"lua,omitempty"`
	Go  json.RawMessage `json:"go,omitempty"`
}

func (c luaFacts) EncodeFact(a *engine.Agent, typ string, v any) (json.RawMessage, error) {
	if lv, ok := v.(lua.LValue); ok {
		j, err := luaToJSON(lv, 0)
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(j)
		if err != nil {
			return nil, err
		}
		return json.Marshal(factJSON{Lua: data})
	}
	data, err := engine.JSONFacts{}.EncodeFact(a, typ, v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(factJSON{Go: data})
}

func (c luaFacts) DecodeFact(a *engine.Agent, typ string, data json.RawMessage) (any, error) {
	var f factJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	switch {
	case f.Lua != nil:
		var v any
		if err := json.Unmarshal(f.Lua, &v); err != nil {
			return nil, err
		}
		return c.r.factToLua(v, 0)
	case f.Go != nil:
		return engine.JSONFacts{}.DecodeFact(a, typ, f.Go)
	}
	return nil, errors.New("a saved fact has neither a lua nor a go value")
}

// luaToJSON converts a Lua fact to what encoding/json writes.
func luaToJSON(v lua.LValue, depth int) (any, error) {
	if depth > maxFactDepth {
		return nil, errors.New("a table nested more than " + strconv.Itoa(maxFactDepth) + " deep (or a cycle) cannot be saved")
	}
	switch x := v.(type) {
	case lua.LBool:
		return bool(x), nil
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errors.New("the number " + lua.LVAsString(x) + " cannot be saved")
		}
		return f, nil
	case lua.LString:
		return string(x), nil
	case *lua.LTable:
		return tableToJSON(x, depth)
	}
	if v == lua.LNil {
		return nil, nil
	}
	return nil, errors.New("a " + v.Type().String() + " cannot be saved")
}

func tableToJSON(t *lua.LTable, depth int) (any, error) {
	if t.Metatable != lua.LNil && t.Metatable != nil {
		return nil, errors.New("a table with a metatable cannot be saved")
	}
	n, count := t.MaxN(), 0
	var bad error
	t.ForEach(func(k, _ lua.LValue) {
		count++
		if _, ok := k.(lua.LString); !ok && bad == nil {
			if _, isNum := k.(lua.LNumber); !isNum {
				bad = errors.New("a table key of type " + k.Type().String() + " cannot be saved")
			}
		}
	})
	if bad != nil {
		return nil, bad
	}
	if n > 0 && count == n {
		out := make([]any, n)
		for i := 1; i <= n; i++ {
			e, err := luaToJSON(t.RawGetInt(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i-1] = e
		}
		return out, nil
	}
	out := make(map[string]any, count)
	var err error
	t.ForEach(func(k, e lua.LValue) {
		if err != nil {
			return
		}
		s, ok := k.(lua.LString)
		if !ok {
			err = errors.New("a table with both string and number keys, or numbers that are no sequence 1..n, cannot be saved")
			return
		}
		out[string(s)], err = luaToJSON(e, depth+1)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// factToLua converts a decoded JSON value to a Lua value of r: objects
// are filled in key order, so pairs visits them in that order.
func (r *Runtime) factToLua(v any, depth int) (lua.LValue, error) {
	if depth > maxFactDepth {
		return nil, errors.New("a saved fact nested more than " + strconv.Itoa(maxFactDepth) + " deep")
	}
	switch x := v.(type) {
	case nil:
		return lua.LNil, nil
	case bool:
		return lua.LBool(x), nil
	case float64:
		return lua.LNumber(x), nil
	case string:
		return lua.LString(x), nil
	case []any:
		t := r.L.CreateTable(len(x), 0)
		for _, e := range x {
			lv, err := r.factToLua(e, depth+1)
			if err != nil {
				return nil, err
			}
			t.Append(lv)
		}
		return t, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t := r.L.CreateTable(0, len(x))
		for _, k := range keys {
			lv, err := r.factToLua(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			t.RawSetString(k, lv)
		}
		return t, nil
	}
	return nil, errors.New("a saved fact holds a value JSON has no name for")
}
