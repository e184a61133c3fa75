package bench

import (
	"strconv"
	"testing"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/luabind"
)

// utilitySizes are the action counts of the utility scaling benchmarks.
var utilitySizes = []int{5, 20, 100}

// BenchmarkUtilityScale is one SelectBestAction (average mode) over 5, 20
// and 100 applicable actions × the 4 considerations of BenchmarkUtilityGo
// (consider=go) and of BenchmarkUtilityLua (consider=lua, the state
// changing before every choice).
func BenchmarkUtilityScale(b *testing.B) {
	for _, n := range utilitySizes {
		b.Run("actions="+strconv.Itoa(n)+"/consider=go", func(b *testing.B) {
			d, err := engine.Compile(utilityRoleN(n))
			if err != nil {
				b.Fatal(err)
			}
			u := engine.NewUtilityPlanner(d)
			u.Considerations = goConsiderations(d)
			st := d.NewState()
			if len(u.ActionsByUtility(st)) != n {
				b.Fatal("every action must apply")
			}
			b.ReportAllocs()
			for b.Loop() {
				if u.SelectBestAction(st) == nil {
					b.Fatal("no pick")
				}
			}
		})
		b.Run("actions="+strconv.Itoa(n)+"/consider=lua", func(b *testing.B) {
			rt := luabind.NewRuntime(luabind.Options{})
			defer rt.Close()
			d, err := rt.LoadDomain(utilityLuaN(b, n))
			if err != nil {
				b.Fatal(err)
			}
			u := engine.NewUtilityPlanner(d)
			st := d.NewState()
			if len(u.ActionsByUtility(st)) != n {
				b.Fatal("every action must apply")
			}
			health, ok := d.Schema.Lookup("health")
			if !ok {
				b.Fatal("no health")
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				st[health] = expr.NumberValue(float64(60 + i%10))
				if u.SelectBestAction(st) == nil {
					b.Fatal("no pick")
				}
			}
			if n, err := u.LastError(); err != nil {
				b.Fatalf("%d consideration errors, the last: %v", n, err)
			}
		})
	}
}
