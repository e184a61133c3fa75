package luabind

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// checkExact returns an error for a finite number of magnitude 2^53 or
// more: the one rule for numbers entering state from Lua (writes to
// npc.state and a role's state table). Infinities and smaller numbers,
// integral or not, pass: the rule is expr.SafeNumber, the one rule for
// every number entering state or the expression language.
// The number is named in its shortest exact form (expr.FormatNumber:
// 9007199254740992, 1e+300), and gopher-lua's math.huge, the largest float
// and not infinity, gets a hint.
func checkExact(f float64) error {
	if !math.IsNaN(f) && !expr.SafeNumber(f) {
		hint := ""
		if math.Abs(f) == math.MaxFloat64 {
			hint = " (math.huge is the largest float here, not infinity: write 1/0 for infinity)"
		}
		return fmt.Errorf("%s is not an exact integer: numbers of magnitude 2^53 or more are refused, since Lua has already rounded them (Lua numbers are float64; 2^53 + 1 reads as 2^53); keep big ids as strings%s",
			expr.FormatNumber(f), hint)
	}
	return nil
}

// toValue converts a Lua value to a state value. Tables, functions and
// other Lua types cannot be stored in state. A number of magnitude 2^53
// or more is refused (see checkExact): the Lua parser and arithmetic have
// already rounded it (a 19-digit id such as 1234567890123456789 reads as
// ...768), so storing it would silently keep a different number; such ids
// belong in strings.
// NaN is refused too; ±inf is kept.
func toValue(v lua.LValue) (expr.Value, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return expr.NilValue(), nil
	case lua.LBool:
		return expr.BoolValue(bool(x)), nil
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) {
			return expr.Value{}, fmt.Errorf("NaN cannot be stored in state")
		}
		if err := checkExact(f); err != nil {
			return expr.Value{}, err
		}
		return expr.NumberValue(f), nil
	case lua.LString:
		return expr.StringValue(string(x)), nil
	}
	return expr.Value{}, fmt.Errorf("a %s cannot be stored in state (only nil, booleans, numbers and strings)", v.Type())
}

// fromValue converts a state value to Lua; Unknown and nil become nil.
func fromValue(v expr.Value) lua.LValue {
	switch v.Kind() {
	case expr.Bool:
		b, _ := v.AsBool()
		return lua.LBool(b)
	case expr.Number:
		n, _ := v.AsNumber()
		return number(n)
	case expr.String:
		s, _ := v.AsString()
		return lua.LString(s)
	}
	return lua.LNil
}

// boxedInts holds the whole numbers 0 to 1023 as Lua values, boxed once:
// handing one to Lua allocates nothing, where a float64 put in an
// interface is otherwise a heap allocation. Counters such as ammo, health
// or magazines are such numbers.
var boxedInts = func() (t [1024]lua.LValue) {
	for i := range t {
		t[i] = lua.LNumber(i)
	}
	return t
}()

// number returns n as a Lua value, a shared boxed one for a whole number
// from 0 to 1023 (not -0).
func number(n float64) lua.LValue {
	if n >= 0 && n < float64(len(boxedInts)) {
		if i := int(n); float64(i) == n && (i != 0 || !math.Signbit(n)) {
			return boxedInts[i]
		}
	}
	return lua.LNumber(n)
}
