package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"
)

// TestTypeOfEveryKindAllocatesNothing: type() answers with a name boxed
// once for every kind of value, a table and a channel included, so a
// call allocates nothing, and the name is the base library's.
func TestTypeOfEveryKindAllocatesNothing(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	th, _ := L.NewThread()
	for _, v := range []lua.LValue{
		lua.LNil, lua.LTrue, lua.LNumber(1.5), lua.LString("x"),
		L.NewFunction(luaType), L.NewUserData(), th, L.NewTable(),
		lua.LChannel(make(chan lua.LValue)),
	} {
		L.SetTop(0)
		L.Push(v)
		assert.Equal(t, 1, luaType(L))
		assert.Equal(t, lua.LString(v.Type().String()), L.Get(2), "type of a %s", v.Type())
		allocs := testing.AllocsPerRun(100, func() {
			luaType(L)
			L.SetTop(1)
		})
		assert.Zero(t, allocs, "type of a %s", v.Type())
	}
}
