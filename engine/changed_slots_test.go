package engine

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/moonmind-ai/moonmind/engine/expr"
)

// drawSlotValue draws a state value of any kind, a string's text stored
// in one of several ways (a literal, bytes converted at run time, a
// substring).
func drawSlotValue(t *rapid.T, label string) expr.Value {
	switch rapid.IntRange(0, 4).Draw(t, label+"kind") {
	case 1:
		return expr.NilValue()
	case 2:
		return expr.BoolValue(rapid.Bool().Draw(t, label+"bool"))
	case 3:
		f := rapid.Float64().Draw(t, label+"float")
		if rapid.Bool().Draw(t, label+"special") {
			f = rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, math.Nextafter(1, 2), 2, math.Inf(1), math.NaN()}).Draw(t, label+"number")
		}
		return expr.NumberValue(f)
	case 4:
		s := rapid.SampledFrom([]string{"", "a", "ab", "abab", "ATTACK"}).Draw(t, label+"text")
		switch rapid.IntRange(0, 2).Draw(t, label+"store") {
		case 1:
			s = string([]byte(s))
		case 2:
			long := "ab" + s + s
			i := rapid.IntRange(0, len(long)).Draw(t, label+"from")
			s = long[i:rapid.IntRange(i, len(long)).Draw(t, label+"to")]
		}
		return expr.StringValue(s)
	}
	return expr.Value{}
}

// TestChangedSlotsMissesNoChange: a slot whose value differs in kind, in
// a number's bits or in text always counts as changed; one that is not
// reported holds the same value, stored alike.
func TestChangedSlotsMissesNoChange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 64).Draw(t, "n")
		x, y := make(expr.State, n), make(expr.State, n)
		for i := range x {
			x[i] = drawSlotValue(t, "x")
			switch rapid.IntRange(0, 2).Draw(t, "y") {
			case 0:
				y[i] = x[i]
			case 1:
				y[i] = drawSlotValue(t, "y")
			case 2: // the same value made again: a text at another place
				if s, ok := x[i].AsString(); ok {
					y[i] = expr.StringValue(strings.Clone(s))
				} else {
					y[i] = x[i]
				}
			}
		}
		m := changedSlots(x, y)
		assert.Zero(t, m>>uint(n), "no bit beyond the slots")
		assert.Equal(t, m == 0, statesAlike(x, y), "statesAlike is changedSlots == 0")
		for i := range x {
			changed := m&(1<<uint(i)) != 0
			if !changed { // then the same value (Equal, or the same NaN)
				assert.Equal(t, x[i], y[i], "slot %d: %s and %s differ, not reported", i, x[i], y[i])
			}
			assert.Equal(t, x[i] != y[i], changed, "slot %d: %s and %s", i, x[i], y[i])
		}
	})
}

// TestChangedSlotsSeesSmallDifferences: changes in a word's low bits,
// which an or of the words' xors without parentheses (^ and | bind alike
// in Go) loses: numbers one ulp apart, two texts of the same length side
// by side in one string.
func TestChangedSlotsSeesSmallDifferences(t *testing.T) {
	long := "abcd"
	x := expr.State{expr.NumberValue(1), expr.StringValue(long[0:2]), expr.NumberValue(4), expr.BoolValue(false)}
	y := expr.State{expr.NumberValue(math.Nextafter(1, 2)), expr.StringValue(long[2:4]), expr.NumberValue(math.Nextafter(4, 5)), expr.BoolValue(true)}
	assert.Equal(t, uint64(0b1111), changedSlots(x, y))
	assert.Equal(t, uint64(0), changedSlots(x, x.Clone()))
	for i := range x {
		z := x.Clone()
		z[i] = y[i]
		assert.False(t, statesAlike(x, z), "slot %d changed", i)
	}
	assert.True(t, statesAlike(x, x.Clone()))
}

// TestStatesAlikeSeesEveryByte: statesAlike and changedSlots find a
// change in either word, and in any byte of the second, of any of n
// Values, for every n up to 20, and none where there is none; they read
// nothing outside the n Values (the slots before and after them differ,
// and are not reported).
func TestStatesAlikeSeesEveryByte(t *testing.T) {
	size := int(unsafe.Sizeof(expr.Value{}))
	for n := 0; n <= 20; n++ {
		xs, ys := make(expr.State, n+2), make(expr.State, n+2)
		for i := range xs {
			xs[i] = expr.NumberValue(float64(i) + 0.5)
			ys[i] = xs[i]
		}
		ys[0], ys[n+1] = expr.NumberValue(-2), expr.NumberValue(-1) // outside: must not count
		x, y := xs[1:n+1], ys[1:n+1:n+1]
		assert.True(t, statesAlike(x, y), "n=%d alike", n)
		if n <= 64 {
			assert.Zero(t, changedSlots(x, y), "n=%d alike", n)
		}
		other := expr.BoolValue(true) // its first word (a valid handle) replaces a slot's
		for i := range n {
			zs := ys.Clone()
			z := zs[1 : n+1]
			*(*uintptr)(unsafe.Pointer(&z[i])) = *(*uintptr)(unsafe.Pointer(&other))
			assert.False(t, statesAlike(x, z), "n=%d slot %d first word", n, i)
			assert.Equal(t, uint64(1)<<i, changedSlots(x, z), "n=%d slot %d first word", n, i)
			for b := size / 2; b < size; b++ { // the second word: a number's bits
				zs := ys.Clone()
				z := zs[1 : n+1]
				bytes := unsafe.Slice((*byte)(unsafe.Pointer(&z[i])), size)
				bytes[b] ^= 0x10
				assert.False(t, statesAlike(x, z), "n=%d slot %d byte %d", n, i, b)
				assert.Equal(t, uint64(1)<<i, changedSlots(x, z), "n=%d slot %d byte %d", n, i, b)
			}
		}
	}
}

// TestStateMovedSeesEverySlot: stateMoved finds a change of either word
// of any slot of a state of 1 to 8 variables (post in stateBuf), finds
// none where there is none, and answers true whenever post does not lie
// in stateBuf or the State slice the game put in its place has another
// length.
func TestStateMovedSeesEverySlot(t *testing.T) {
	for n := 1; n <= 8; n++ {
		vars := make([]Var, n)
		for i := range vars {
			vars[i] = Var{fmt.Sprintf("v%d", i), expr.NumberValue(float64(i) + 0.25)}
		}
		d, err := Compile(RoleSpec{Name: "R", State: vars})
		require.NoError(t, err)
		a := NewAgent("npc", d)
		require.Equal(t, n, int(a.postN), "post lies in stateBuf")
		assert.False(t, stateMoved(a), "n=%d: alike", n)
		for i := range n {
			was := a.State[i]
			a.State[i] = expr.NumberValue(-1)
			assert.True(t, stateMoved(a), "n=%d: slot %d's number", n, i)
			a.State[i] = expr.StringValue("x")
			assert.True(t, stateMoved(a), "n=%d: slot %d's kind", n, i)
			a.State[i] = was
			assert.False(t, stateMoved(a), "n=%d: slot %d back", n, i)
		}
		a.State = a.State[:n-1]
		assert.True(t, stateMoved(a), "n=%d: a shorter State", n)
		a.State = a.Domain.NewState() // the same values in a slice of the game's: compared with post
		assert.False(t, stateMoved(a), "n=%d: a replaced State alike", n)
		a.State[n-1] = expr.BoolValue(false)
		assert.True(t, stateMoved(a), "n=%d: a replaced State changed", n)
	}
	var wide []Var
	for i := range 9 { // 2*9 > len(stateBuf): post lies apart
		wide = append(wide, Var{fmt.Sprintf("w%d", i), expr.BoolValue(true)})
	}
	d, err := Compile(RoleSpec{Name: "W", State: wide})
	require.NoError(t, err)
	a := NewAgent("npc", d)
	require.Zero(t, a.postN)
	assert.True(t, stateMoved(a), "post apart: not known alike here")
}
