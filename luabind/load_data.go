package luabind

import (
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// LoadData runs the Lua file at path in the sandbox, as a role file is
// run, and returns the value it returns as plain Go data: a table whose
// keys are 1..n is a []any, any other table a map[string]any (its keys
// must be strings), a string a string, a number a float64, a boolean a
// bool, nil nil. A function, or any other value, anywhere in it is an
// error naming where, as is a table reached twice (a cycle). Tools read
// data files written in Lua with it, such as moonmind test's scenarios.
func (r *Runtime) LoadData(path string) (any, error) {
	if r.closed {
		return nil, errClosed
	}
	path = r.resolve(path)
	src, err := readScript(path)
	if err != nil {
		return nil, errors.New("luabind: " + err.Error())
	}
	fn, err := r.compile(strings.NewReader(string(src)), path)
	if err != nil {
		return nil, luaError(err)
	}
	r.envRoot[fn.Env] = path
	rets, err := r.call(nil, modeLoad, fn, 1)
	if err != nil {
		return nil, err
	}
	return toData(rets[0], path+": the returned value", map[*lua.LTable]bool{})
}

// toData converts one Lua value for LoadData; where names it for errors.
func toData(v lua.LValue, where string, seen map[*lua.LTable]bool) (any, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(x), nil
	case lua.LNumber:
		return float64(x), nil
	case lua.LString:
		return string(x), nil
	case *lua.LTable:
		if seen[x] {
			return nil, fmt.Errorf("%s: a table that holds itself", where)
		}
		seen[x] = true
		defer delete(seen, x)
		n := x.Len()
		count := 0
		var err error
		x.ForEach(func(lua.LValue, lua.LValue) { count++ })
		if count == n && n > 0 {
			out := make([]any, n)
			for i := 1; i <= n && err == nil; i++ {
				out[i-1], err = toData(x.RawGetInt(i), fmt.Sprintf("%s[%d]", where, i), seen)
			}
			return out, err
		}
		out := make(map[string]any, count)
		x.ForEach(func(k, val lua.LValue) {
			if err != nil {
				return
			}
			ks, ok := k.(lua.LString)
			if !ok {
				err = fmt.Errorf("%s: a key that is a %s, not a string (%s)", where, k.Type(), k)
				return
			}
			out[string(ks)], err = toData(val, where+"."+string(ks), seen)
		})
		return out, err
	}
	return nil, fmt.Errorf("%s: a %s, which is not data (write strings, numbers, booleans and tables)", where, v.Type())
}
