package luavm

import (
	"maps"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// TableArray returns the array part of t: the values of its integer keys
// 1 to len (gopher-lua keeps keys up to lua.MaxArrayIndex there), nils
// that pad it included, in a slice that shares t's memory (read it only).
// It is nil when OK is false.
func TableArray(t *lua.LTable) []lua.LValue {
	if !layout.ok {
		return nil
	}
	return *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), layout.tableArray))
}

// TableKeys returns the keys of t's hash part in the order next visits
// them (string keys and every other key gopher-lua keeps outside the
// array part), in a slice that shares t's memory (read it only). It
// includes keys whose value was set to nil since: gopher-lua never
// removes a key from this order (nor from the index beside it, a map of
// key to position), so they keep costing memory, and a string key keeps
// its string alive. It is nil when OK is false.
func TableKeys(t *lua.LTable) []lua.LValue {
	if !layout.ok {
		return nil
	}
	return *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), layout.tableKeys))
}

// PadArray appends n nils to t's array part in one allocation, with room
// for one more value, and reports whether it did (false when OK is
// false). gopher-lua pads the array one append at a time when a key is
// written past its end (t[k] = v with k up to lua.MaxArrayIndex); after
// PadArray(t, k-1-len) that write is a single append into the room left.
func PadArray(t *lua.LTable, n int) bool {
	if !layout.ok || n <= 0 {
		return false
	}
	p := (*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), layout.tableArray))
	old := *p
	a := make([]lua.LValue, len(old)+n, len(old)+n+1)
	copy(a, old)
	fill := a[len(old):]
	for i := range fill {
		fill[i] = lua.LNil
	}
	*p = a
	return true
}

// ReplaceString is t.RawSetString(key, v) for a key that t holds already
// and a v that is not nil: the write into t's map of string keys alone,
// without RawSetString's look-up of the key in t's key order (which a
// new key or a nil would change). It reports false, writing nothing,
// when it cannot (OK is false, or t has no string key).
func ReplaceString(t *lua.LTable, key string, v lua.LValue) bool {
	if !layout.ok {
		return false
	}
	d := *(*map[string]lua.LValue)(unsafe.Add(unsafe.Pointer(t), layout.tableStrings))
	if d == nil {
		return false
	}
	d[key] = v
	return true
}

// CompactStrings gives t's map of string keys a new map made for their
// number, with the same keys and values (so t's key order, and next, stay
// as they are). gopher-lua makes every table's map with room for 32
// keys: several groups, whose every look-up hashes the key, picks a group
// from a directory and probes it; a map made for at most 8 keys is one
// group, scanned. It does nothing when OK is false.
func CompactStrings(t *lua.LTable) {
	if !layout.ok {
		return
	}
	p := (*map[string]lua.LValue)(unsafe.Add(unsafe.Pointer(t), layout.tableStrings))
	m := make(map[string]lua.LValue, len(*p))
	maps.Copy(m, *p)
	*p = m
}
