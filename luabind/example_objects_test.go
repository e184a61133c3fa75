package luabind_test

import (
	"fmt"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// A role declares the crates of its world in its objects list; the game
// adds them to the world once, and after it changes a crate's data, asks
// the crates what they offer now: the crate with no magazine left offers
// no slot.
func ExampleRuntime_AddObjects() {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: "testdata"})
	defer rt.Close()
	d, err := rt.LoadDomain(filepath.Join("testdata", "crate_objects.lua"))
	if err != nil {
		fmt.Println(err)
		return
	}
	w := engine.NewWorld(1)
	if err := rt.AddObjects(w, d); err != nil {
		fmt.Println(err)
		return
	}
	near := w.Object("near")
	near.Data.(*luabind.ObjectData).Values["magazines"] = expr.NumberValue(0) // the last one taken
	if err := rt.UpdateObjects(w); err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range w.Objects() {
		fmt.Printf("%s: a %s with %d slot(s)\n", o.Name, o.Kind, o.Slots)
	}
	// Output:
	// near: a crate with 0 slot(s)
	// far: a crate with 2 slot(s)
	// medic: a medic with 3 slot(s)
}
