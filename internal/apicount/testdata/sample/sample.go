package sample

const A, b = 1, 2

var V int

func F()      {}
func g()      {}
func (T) M()  {}
func (*T) N() {}
func (t) O()  {}

type T struct {
	X, y int
	Embedded
}

type Embedded struct{}

type I interface{ Do() }

type t struct{ Z int }
