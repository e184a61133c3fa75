package luabind

import (
	"fmt"
	"math"
	"strconv"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// maxExact is 2^53: every integer of at most this magnitude is exact in a
// float64, Lua's only number type here.
const maxExact = 1 << 53

// toValue converts a Lua value to a state value. Tables, functions and
// other Lua types cannot be stored in state. A number beyond ±2^53 is
// refused: the Lua parser and arithmetic have already rounded it (a
// 19-digit id such as 1234567890123456789 reads as ...768), so storing it
// would silently keep a different number; such ids belong in strings.
// NaN is refused too; ±inf is kept.
func toValue(v lua.LValue) (engine.Value, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return engine.NilValue(), nil
	case lua.LBool:
		return engine.BoolValue(bool(x)), nil
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) {
			return engine.Value{}, fmt.Errorf("NaN cannot be stored in state")
		}
		if !math.IsInf(f, 0) && math.Abs(f) > maxExact {
			return engine.Value{}, fmt.Errorf("%s is beyond 2^53, so Lua has already rounded it (Lua numbers are float64); keep big ids as strings", strconv.FormatFloat(f, 'f', 0, 64))
		}
		return engine.NumberValue(f), nil
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
