package expr_test

import (
	"errors"
	"fmt"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// A condition and an effect compiled against one schema, evaluated and
// applied on a state of it.
func Example() {
	sc := expr.NewSchema("ammo", "magazines")
	armed, err := expr.CompileCondition("ammo > 10", sc)
	if err != nil {
		panic(err)
	}
	reload, err := expr.CompileEffect("ammo = 30, magazines = magazines - 1", sc)
	if err != nil {
		panic(err)
	}
	st := sc.NewState()
	st.Set(sc, "ammo", expr.NumberValue(0))
	st.Set(sc, "magazines", expr.NumberValue(2))
	fmt.Println(armed.Eval(st))
	if err := reload.ApplyInPlace(st); err != nil {
		panic(err)
	}
	fmt.Println(armed.Eval(st), string(st.JSON(sc)))
	// Output:
	// false
	// true {"ammo":30,"magazines":1}
}

// A text that does not parse is a *ParseError with the column and a caret.
func ExampleParseError() {
	_, err := expr.CompileCondition("ammo > 10 && && ready", expr.NewSchema())
	fmt.Println(err)
	// Output:
	// expr: col 14: expected a value (a name, a number, a string, true, false, nil or "("), found "&&"
	//	ammo > 10 && && ready
	//	             ^
}

// Numbers beyond 2^53 - 1 are refused wherever they enter.
func ExampleSafeNumber() {
	fmt.Println(expr.SafeNumber(9007199254740991), expr.SafeNumber(9007199254740992))
	_, err := expr.ParseLiteral("9007199254740993")
	var pe *expr.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Found)
	}
	// Output:
	// true false
	// "9007199254740993"
}
