package luabind

import (
	"fmt"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// toValue converts a Lua value to a state value. Tables, functions and
// other Lua types cannot be stored in state.
func toValue(v lua.LValue) (engine.Value, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return engine.NilValue(), nil
	case lua.LBool:
		return engine.BoolValue(bool(x)), nil
	case lua.LNumber:
		return engine.NumberValue(float64(x)), nil
	case lua.LString:
		return engine.StringValue(string(x)), nil
	}
	return engine.Value{}, fmt.Errorf("a %s cannot be stored in state (only nil, booleans, numbers and strings)", v.Type())
}

// fromValue converts a state value to Lua; Unknown and nil become nil.
func fromValue(v engine.Value) lua.LValue {
	switch v.Kind() {
	case engine.Bool:
		b, _ := v.AsBool()
		return lua.LBool(b)
	case engine.Number:
		n, _ := v.AsNumber()
		return lua.LNumber(n)
	case engine.String:
		s, _ := v.AsString()
		return lua.LString(s)
	}
	return lua.LNil
}
