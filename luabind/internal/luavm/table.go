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
